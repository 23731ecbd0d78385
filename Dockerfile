# Houserules: one image, the app server. PostgreSQL comes from docker-compose.yml.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    HOUSERULES_DATA_DIR=/data

WORKDIR /srv/houserules

RUN groupadd --system --gid 10001 houserules \
    && useradd --system --uid 10001 --gid houserules --home-dir /srv/houserules --shell /usr/sbin/nologin houserules \
    && mkdir -p /data && chown houserules:houserules /data && chmod 0700 /data

# The source tree is the install: templates, static files, translations and migrations live beside app/.
# Code stays owned by root (read-only for the app's user); only /data is the app's to write.
# .dockerignore keeps .env, .git, data and caches out of the image.
COPY . .
RUN pip install --editable .

USER 10001:10001
EXPOSE 8000
VOLUME ["/data"]

HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", timeout=2)"]

# Applies the migrations, then serves.
CMD ["python", "-m", "app"]
