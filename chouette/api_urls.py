"""Routes of the chouette API under /api/v1/chouette/."""

urlpatterns: list = []
