"""WSGI entry point (gunicorn config.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from core.live_grip import ClientAddressFromProxy  # noqa: E402  (needs the settings)

# Behind Pushpin (make serve, docker compose): the client's address, not Pushpin's.
application = ClientAddressFromProxy(django_application)
