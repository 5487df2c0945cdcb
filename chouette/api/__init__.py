"""The chouette REST API under /api/v1/chouette/ (routes in ``chouette.api_urls``)."""
