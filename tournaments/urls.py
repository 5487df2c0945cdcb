"""Pages of the tournaments app."""

urlpatterns: list = []
