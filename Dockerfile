# Production image: gunicorn serving Boxcars; the same image runs the worker and beat.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_ENV=production
WORKDIR /app
# The analysis engine is the gnubg Python binding (a pip dependency with its weights);
# Debian's gnubg program is the reference the analysis is checked against, shipped too so
# a director can compare a match by hand (`gnubg -t`).
RUN apt-get update && apt-get install -y --no-install-recommends gnubg \
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
COPY manage.py ./
RUN pip install --no-cache-dir . \
    && SECRET_KEY=build-only-build-only-build-only-build-only-build-only \
       ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput
RUN useradd --create-home boxcars
USER boxcars
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
