# Houserules: one image, the app server. PostgreSQL comes from docker-compose.yml.
# The base image by digest: a rebuild gets the same bytes. This digest was not pulled here (no
# registry reachable); it is the python:3.12-slim index digest several public projects pin. To move
# it: `docker buildx imagetools inspect python:3.12-slim` and replace it (README, "Upgrades").
FROM python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    HOUSERULES_DATA_DIR=/data \
    PYTHONPATH=/srv/houserules

WORKDIR /srv/houserules

RUN groupadd --system --gid 10001 houserules \
    && useradd --system --uid 10001 --gid houserules --home-dir /srv/houserules --shell /usr/sbin/nologin houserules \
    && mkdir -p /data && chown houserules:houserules /data && chmod 0700 /data

# The dependencies in a layer of their own, before the code (a code change reuses it): exactly the
# versions in uv.lock, every file checked against its hash, nothing the lock does not name.
COPY requirements/app.txt requirements/app.txt
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements/app.txt

# The source tree is the app, not installed (PYTHONPATH names it): templates, static files,
# translations and migrations live beside app/. Code stays owned by root (read-only for the app's
# user); only /data is the app's to write. .dockerignore keeps .env, .git, data and caches out.
COPY . .
# The project's metadata (not an install): its entry points register the games (app/registry.py).
RUN python scripts/project-metadata

USER 10001:10001
EXPOSE 8000
VOLUME ["/data"]

HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", timeout=2)"]

# Applies the migrations, then serves.
CMD ["python", "-m", "app"]
