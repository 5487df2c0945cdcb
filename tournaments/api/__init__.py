"""The tournaments REST API under /api/v1/tournaments/."""
