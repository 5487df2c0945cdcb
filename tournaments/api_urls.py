"""Routes of the tournaments API under /api/v1/."""

urlpatterns: list = []
