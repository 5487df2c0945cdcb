#!/bin/sh
# `make serve`: the production stack on one machine, in the foreground (docs/operations.md).
# Migrates, collects the static files, then runs every line of the Procfile with honcho
# (Pushpin on PORT in front of gunicorn, the live relay, the Celery worker and beat);
# SIGINT or SIGTERM to this process (honcho, once started) stops every one of them.
#
# Needs DATABASE_URL, REDIS_URL, SECRET_KEY (production settings: DJANGO_ENV=production).
# PORT (default 8000) and HOST (default 127.0.0.1): where browsers connect. On a loopback
# HOST, plain HTTP is allowed (SECURE_SSL_REDIRECT defaults to false) and ALLOWED_HOSTS
# defaults to the loopback names; elsewhere put TLS in front and set them yourself.
# gunicorn listens on WEB_PORT (PORT+1) and Pushpin's publish API on LIVE_PUBLISH_BIND
# (127.0.0.1:PORT+2), both on loopback only.
set -eu
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] && PATH="$PWD/.venv/bin:$PATH"
: "${DATABASE_URL:?make serve needs DATABASE_URL (PostgreSQL)}"
: "${REDIS_URL:?make serve needs REDIS_URL}"
: "${SECRET_KEY:?make serve needs SECRET_KEY (production settings; 50 characters or more)}"
PORT="${PORT:-8000}"
HOST="${HOST:-127.0.0.1}"
case "$HOST" in
  127.*|localhost|::1)
    SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-false}"
    ALLOWED_HOSTS="${ALLOWED_HOSTS:-127.0.0.1,localhost}"
    export SECURE_SSL_REDIRECT ALLOWED_HOSTS ;;
esac
DJANGO_ENV=production
WEB_PORT="${WEB_PORT:-$((PORT + 1))}"
LIVE_PUBLISH_BIND="${LIVE_PUBLISH_BIND:-127.0.0.1:$((PORT + 2))}"
LIVE_GRIP_PUBLISH_URL="http://$LIVE_PUBLISH_BIND/publish/"
LIVE_UPSTREAM="127.0.0.1:$WEB_PORT"
LIVE_PROXY_BIND="$HOST"
# Pushpin signs what it forwards with this key and the web checks it: a fresh one per run.
LIVE_GRIP_KEY="${LIVE_GRIP_KEY:-$(python -c 'import secrets; print(secrets.token_urlsafe(32))')}"
export PORT DJANGO_ENV WEB_PORT LIVE_PUBLISH_BIND LIVE_GRIP_PUBLISH_URL LIVE_UPSTREAM \
  LIVE_PROXY_BIND LIVE_GRIP_KEY
python manage.py migrate --noinput
python manage.py collectstatic --noinput -v 0
case "$HOST" in *:*) shown="[$HOST]" ;; *) shown="$HOST" ;; esac
echo "Boxcars (production stack) serving http://$shown:$PORT/ (Ctrl-C stops every process)"
exec honcho start -f Procfile -p "$PORT"
