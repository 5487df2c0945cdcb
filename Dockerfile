# Production image: gunicorn serving Boxcars; the same image runs the worker and beat.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_ENV=production
WORKDIR /app
# The analysis engine is the gnubg Python binding (a pip dependency with its weights);
# Debian's gnubg program is the reference the analysis is checked against, shipped too so
# a director can compare a match by hand (`gnubg -t`).
# gettext compiles the translation catalogs (locale/) at build time. Pushpin is the
# front door holding the live streams (docs/live.md; the `proxy` service).
RUN apt-get update && apt-get install -y --no-install-recommends gnubg gettext pushpin \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md LICENSE THIRD_PARTY_NOTICES.md ./
COPY config ./config
COPY games ./games
COPY data/met ./data/met
COPY tournaments ./tournaments
COPY chouette ./chouette
COPY analysis ./analysis
COPY bench ./bench
COPY templates ./templates
COPY static ./static
COPY locale ./locale
COPY core ./core
COPY money ./money
COPY manage.py Procfile ./
COPY deploy ./deploy
RUN pip install --no-cache-dir . \
    && SECRET_KEY=build-only-build-only-build-only-build-only-build-only \
       ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput \
    && python manage.py compilemessages --ignore=.venv -v 0
RUN useradd --create-home boxcars
USER boxcars
EXPOSE 8000
# The web alone (docker compose runs each line of the Procfile as its own service, with
# Pushpin in front): without LIVE_GRIP_KEY it holds the live streams on its own threads.
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--worker-class", "gthread", "--threads", "16", "--no-control-socket", "--access-logfile", "-"]
