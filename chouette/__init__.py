"""Chouette sessions: seats, games, a cube per member, the ledger and the settlement."""
