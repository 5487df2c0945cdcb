"""URL configuration: pages, the live stream, the API under /api/v1/, its schema and
docs, /healthz."""

from django import get_version
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.cache import cache_page
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core.live_stream import live_stream
from games.api.auth import TokenLoginView, TokenRevokeAllView, TokenRevokeView
from games.pages.language import set_language
from tournaments.public_pages import SITEMAPS

from .health import healthz

# The JavaScript catalog only changes with a deploy (its .mo files are built then), so it
# is cached per language for a day and dated by the process start: a conditional request
# after a deploy gets the new catalog. base.html puts the language in its address, so a
# browser never keeps one language's catalog after the visitor switched.
STARTED = timezone.now()
javascript_catalog = cache_page(24 * 3600, key_prefix=f"jsi18n-{get_version()}")(
    last_modified(lambda request, **kwargs: STARTED)(JavaScriptCatalog.as_view())
)

api_v1 = [
    path("auth/token/", TokenLoginView.as_view(), name="api-token-login"),
    path("auth/token/revoke/", TokenRevokeView.as_view(), name="api-token-revoke"),
    path("auth/token/revoke-all/", TokenRevokeAllView.as_view(), name="api-token-revoke-all"),
    path("", include("clubdata.api_urls")),
    path("", include("money.api_urls")),
    path("", include("games.api.urls", namespace="api")),
    path("", include("core.api_urls")),
    path("", include("tournaments.api_urls")),
    path("chouette/", include("chouette.api_urls")),
    path("", include("analysis.api_urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Published events for search engines (docs/directors.md, "Results that stay").
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    # The header's language picker posts here; the choice is kept in a cookie.
    # (signed in, it is also stored on the account's player: their emails' language).
    path("i18n/setlang/", set_language, name="set_language"),
    # gettext() and interpolate() for static/js, in the page's language (docs/languages.md).
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("live/stream/", live_stream, name="live-stream"),
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
    path("", include("clubdata.urls")),
    path("", include("games.urls")),
]

handler400 = "config.error_views.bad_request"
handler404 = "config.error_views.not_found"
handler500 = "config.error_views.server_error"
