"""URL configuration: pages, the API under /api/v1/, its schema and docs, /healthz."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api.auth import TokenLoginView, TokenRevokeAllView, TokenRevokeView

from .health import healthz

api_v1 = [
    path("auth/token/", TokenLoginView.as_view(), name="api-token-login"),
    path("auth/token/revoke/", TokenRevokeView.as_view(), name="api-token-revoke"),
    path("auth/token/revoke-all/", TokenRevokeAllView.as_view(), name="api-token-revoke-all"),
    path("", include("money.api_urls")),
    path("", include("games.api.urls", namespace="api")),
    path("", include("core.api_urls")),
    path("", include("tournaments.api_urls")),
    path("chouette/", include("chouette.api_urls")),
    path("", include("analysis.api_urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("tournaments/", include("money.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("chouette/", include("chouette.urls")),
    path("", include("analysis.urls")),
    path("", include("money.club_urls")),
    path("", include("games.urls")),
]

handler400 = "config.error_views.bad_request"
handler404 = "config.error_views.not_found"
handler500 = "config.error_views.server_error"
