"""Pages of the chouette app."""

urlpatterns: list = []
