"""The players' installable web app: its manifest and its service worker.

The worker is served by Django at ``/sw.js`` (not from ``/static/``) so that its scope is
the whole site: a worker's default scope is the folder it is served from, and the pages
it must open offline (``/``, ``/matches/<id>/enter/``, ``/score/<token>/``) live at the
root. It is ``static/js/sw.js`` with one line put in front, the release it belongs to:
the worker names its caches after that release, so a new release is a byte-different
worker, the browser installs it, and it deletes the old release's caches (see
``docs/development.md``, "Offline score entry").

The release is ``settings.BOXCARS_RELEASE`` when a deploy sets it, else a digest of the
files the offline shell is made of, so a change to any of them is a new release even
when nobody remembers to bump a number.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

#: What the worker stores on install, so a visited page opens offline with its styles
#: and scripts. The pages themselves are stored as they are visited (network first).
SHELL_FILES = (
    "css/boxcars.css",
    "css/forms.css",
    "css/home.css",
    "css/offline.css",
    "vendor/htmx-2.0.11.min.js",
    "vendor/htmx-ext-sse-2.2.4.js",
    "js/live.js",
    "js/entry.js",
    "js/offline-queue.js",
    "js/offline.js",
    "js/push-sw.js",
    "icons/boxcars-192.png",
    "icons/boxcars-512.png",
)
WORKER_SOURCE = "js/sw.js"
#: What the worker imports: push notifications (one worker per scope carries them) and
#: the offline queue it sends on Background Sync.
WORKER_IMPORTS = ("js/push-sw.js", "js/offline-queue.js")


def _source(name: str) -> bytes:
    found = finders.find(name)
    if not found:
        raise FileNotFoundError(name)
    return Path(str(found)).read_bytes()


@cache
def _shell_digest() -> str:
    digest = hashlib.sha256()
    for name in (WORKER_SOURCE, *SHELL_FILES):
        digest.update(_source(name))
    return digest.hexdigest()[:12]


def release() -> str:
    """The release the worker and the pages carry (``data-release`` on ``<html>``)."""
    configured = getattr(settings, "BOXCARS_RELEASE", "") or ""
    return str(configured) or _shell_digest()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker, versioned; never cached by HTTP, so an update is seen at once."""
    lines = [
        f"self.BOXCARS_RELEASE = {json.dumps(release())};",
        f"self.BOXCARS_SHELL = {json.dumps([static(name) for name in SHELL_FILES])};",
        f"self.BOXCARS_IMPORTS = {json.dumps([static(name) for name in WORKER_IMPORTS])};",
    ]
    head = "\n".join(lines) + "\n"
    body = head.encode() + _source(WORKER_SOURCE)
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to install Boxcars on its home screen."""
    data = {
        "name": gettext("Boxcars score entry"),
        "short_name": "Boxcars",
        "description": gettext("Enter and confirm your backgammon match scores, even offline."),
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": "#8a1c1c",
        "icons": [
            {
                "src": static(f"icons/boxcars-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = HttpResponse(json.dumps(data), content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=3600"
    return response
