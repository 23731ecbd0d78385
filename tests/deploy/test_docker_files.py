"""The self-hosting files: no Docker engine runs here, so check what can be checked without one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
COMPOSE_FILES = ("docker-compose.yml", "compose.scale.yml", "compose.caddy.yml")
DOMAIN = "cards.example.org"


def tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the test extras)")
    return found


def test_compose_file_is_valid_and_wires_postgres() -> None:
    env = {**os.environ, "POSTGRES_PASSWORD": "secret"}
    result = subprocess.run(
        [tool("docker-compose"), "-f", "docker-compose.yml", "config"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    config = result.stdout
    assert "condition: service_healthy" in config
    assert "pg_isready" in config
    # The password travels as its own setting (the app quotes it into the URL), never pasted raw
    # into a URL where @ : / would break it.
    assert "HOUSERULES_DB_PASSWORD: secret" in config and "HOUSERULES_DB_HOST: db" in config
    assert "@db:5432" not in config and "DATABASE_URL" not in config


def _compose_config(**env: str) -> str:
    result = subprocess.run(
        [tool("docker-compose"), "-f", "docker-compose.yml", "config"],
        cwd=ROOT, env={**os.environ, "POSTGRES_PASSWORD": "secret", **env}, capture_output=True, text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_compose_publishes_on_loopback_unless_told_otherwise() -> None:
    default = _compose_config()
    assert "host_ip: 127.0.0.1" in default and "published: \"8000\"" in default
    opened = _compose_config(HOUSERULES_BIND="0.0.0.0", HOUSERULES_PORT="9000")
    assert "host_ip: 0.0.0.0" in opened and "published: \"9000\"" in opened


def test_compose_passes_any_password_and_the_public_origin_to_the_app() -> None:
    password = "p@ss:w/rd%?#&"
    config = _compose_config(POSTGRES_PASSWORD=password, HOUSERULES_PUBLIC_ORIGIN="https://cards.example")
    assert f"HOUSERULES_DB_PASSWORD: {password}" in config
    assert "HOUSERULES_PUBLIC_ORIGIN: https://cards.example" in config
    assert "HOUSERULES_TRUSTED_PROXIES" in config and "HOUSERULES_LOG_LEVEL" in config


def test_dockerignore_keeps_secrets_history_data_and_caches_out() -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".env", ".env.*", ".git", "data", "**/__pycache__", ".pytest_cache", ".mypy_cache",
            ".ruff_cache", ".venv"} <= ignored


def test_code_belongs_to_root_and_only_the_data_folder_to_the_app_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    copies = [line for line in text.splitlines() if line.startswith("COPY")]
    # No --chown: the code stays root's, read-only for the app.
    assert copies == ["COPY requirements/app.txt requirements/app.txt", "COPY . ."], copies
    assert "chown houserules:houserules /data" in text
    # The app's user takes over only after the install, and the data folder is its volume.
    assert text.index("RUN pip install") < text.index("\nUSER 10001")
    assert 'VOLUME ["/data"]' in text and "HOUSERULES_DATA_DIR=/data" in text


def test_dependencies_install_from_the_lock_in_their_own_layer_before_the_code() -> None:
    """Only the lock file is copied before the install (a code change reuses the layer); every file
    checked by hash, nothing the lock does not name, nothing editable; the code is not installed."""
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    installs = [line for line in lines if line.startswith("RUN pip")]
    assert installs == ["RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements/app.txt"]
    assert lines.index("COPY requirements/app.txt requirements/app.txt") < lines.index(installs[0])
    assert lines.index(installs[0]) < lines.index("COPY . .")
    assert "--editable" not in "\n".join(lines) and " -e " not in "\n".join(lines)
    assert "PYTHONPATH=/srv/houserules" in "\n".join(lines)


def test_every_image_is_pinned_by_digest() -> None:
    """The Dockerfile's base and every image compose pulls: a tag for people, a digest for the build."""
    froms = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("FROM")]
    pinned = r"[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}"
    assert froms and all(re.fullmatch(f"FROM {pinned}", line) for line in froms), froms
    for path in sorted(ROOT.glob("*compose*.yml")):
        images = re.findall(r"^\s*image:\s*(\S+)", path.read_text(), re.M)
        assert images, path
        for image in images:
            assert re.fullmatch(pinned, image), (path.name, image)


def test_compose_refuses_to_start_without_a_database_password() -> None:
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    result = subprocess.run(
        [tool("docker-compose"), "-f", "docker-compose.yml", "config", "-q"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    assert result.returncode != 0
    assert "POSTGRES_PASSWORD" in result.stderr


def test_dockerfile_lints_clean_and_runs_as_non_root_with_a_healthcheck() -> None:
    result = subprocess.run(
        [tool("hadolint"), "--failure-threshold", "warning", "Dockerfile"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    text = (ROOT / "Dockerfile").read_text()
    assert "\nUSER 10001" in text
    assert "HEALTHCHECK" in text and "/healthz" in text
    assert "python:3.12-slim" in text


def test_readme_says_how_to_open_back_up_and_upgrade() -> None:
    readme = (ROOT / "README.md").read_text()
    for heading in ("### Backups", "### Upgrades"):
        assert heading in readme
    assert "docker compose exec -T db pg_dump" in readme and "pg_restore" in readme
    assert "HOUSERULES_BIND=0.0.0.0" in readme and "127.0.0.1 only" in readme


def test_every_setting_is_documented() -> None:
    """Each HOUSERULES_* setting appears in the README's table or the limits table of docs/security.md."""
    from app.config import Settings

    documented = (ROOT / "README.md").read_text() + (ROOT / "docs" / "security.md").read_text()
    missing = []
    for name, field in Settings.model_fields.items():
        if field.validation_alias is not None or name == "migrate":
            continue  # DATABASE_URL, HOST, PORT (documented by those names); migrate is for tests
        env = f"HOUSERULES_{name.upper()}"
        short = env.replace("HOUSERULES_DB_", "_DB_")
        if env not in documented and short not in documented:
            missing.append(env)
    assert not missing, missing


def test_scale_out_compose_runs_replicas_behind_nginx_hashing_the_room_id() -> None:
    result = subprocess.run(
        [tool("docker-compose"), "-f", "compose.scale.yml", "config"],
        cwd=ROOT, env={**os.environ, "POSTGRES_PASSWORD": "secret", "HOUSERULES_REPLICAS": "3"},
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    config = result.stdout
    assert "replicas: 3" in config and "image: nginx:" in config
    assert "condition: service_healthy" in config and "HOUSERULES_DB_HOST: db" in config
    # Only the proxy publishes a port: the replicas are reached through it alone.
    assert config.count("published:") == 1
    assert "deploy/nginx-scale.conf" in config and "/etc/nginx/conf.d/default.conf" in config
    nginx = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    # nginx's own consistent hashing on the room id, taken from the socket's, page's and API's paths.
    assert "hash $room consistent;" in nginx and "server app:8000 resolve;" in nginx
    for path in ("^/ws/", "^/r/", "^/api/rooms/"):
        assert path in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx


def _compose(path: str) -> str:
    result = subprocess.run([tool("docker-compose"), "-f", path, "config"], cwd=ROOT,
                            env={**os.environ, "POSTGRES_PASSWORD": "secret", "HOUSERULES_DOMAIN": DOMAIN},
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_shipped_config_names_its_trusted_proxies_exactly() -> None:
    """A trusted ``*`` with nginx appending to X-Forwarded-For let every client choose its address:
    the scaled setup trusts exactly its own compose network, whose subnet it fixes."""
    import ipaddress
    for path in COMPOSE_FILES:
        config = _compose(path)
        trusted = re.search(r"HOUSERULES_TRUSTED_PROXIES: (\S+)", config)
        subnet = re.search(r"subnet: (\S+)", config)
        assert trusted is not None and subnet is not None, path
        assert "*" not in trusted.group(1), path
        for entry in trusted.group(1).strip("'\"").split(","):
            ipaddress.ip_network(entry)  # an address or a network, nothing looser
        network = ipaddress.ip_network(subnet.group(1))
        assert network.is_private, path
    assert re.search(r"HOUSERULES_TRUSTED_PROXIES: \"?172\.29\.86\.0/24", _compose("compose.scale.yml"))
    assert "subnet: 172.29.86.0/24" in _compose("compose.scale.yml")
    nginx = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    # nginx appends the address it saw; the app believes the right-most untrusted entry.
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in nginx
    # /metrics is not published through the proxy.
    assert re.search(r"location = /metrics \{\s*return 404;", nginx)


def _services(path: str) -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(_compose(path))["services"]
    return services


def test_every_service_rotates_its_logs() -> None:
    for path in COMPOSE_FILES:
        for name, service in _services(path).items():
            logging = service.get("logging")
            assert logging is not None, (path, name)
            assert logging["driver"] == "json-file", (path, name)
            assert logging["options"] == {"max-size": "10m", "max-file": "5"}, (path, name)


def test_env_example_names_every_setting_compose_reads_and_refuses_an_empty_password() -> None:
    example = (ROOT / ".env.example").read_text()
    named = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    for path in COMPOSE_FILES:
        used = set(re.findall(r"\$\{([A-Z_]+)", (ROOT / path).read_text()))
        assert used <= named, (path, used - named)
        # .env.example as .env, its blanks filled by the environment (which compose lets override it).
        filled = subprocess.run(
            [tool("docker-compose"), "--env-file", ".env.example", "-f", path, "config", "-q"], cwd=ROOT,
            env={**os.environ, "POSTGRES_PASSWORD": "secret", "HOUSERULES_DOMAIN": DOMAIN},
            capture_output=True, text=True, check=False)
        assert filled.returncode == 0, (path, filled.stderr)
        blank = subprocess.run(
            [tool("docker-compose"), "--env-file", ".env.example", "-f", path, "config", "-q"], cwd=ROOT,
            env={k: v for k, v in os.environ.items() if k not in ("POSTGRES_PASSWORD", "HOUSERULES_DOMAIN")},
            capture_output=True, text=True, check=False)
        assert blank.returncode != 0 and "POSTGRES_PASSWORD" in blank.stderr, (path, blank.stderr)
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert ".env" in ignored and "backups/" in ignored


def test_https_compose_publishes_only_caddy_with_the_domain_as_public_origin() -> None:
    services = _services("compose.caddy.yml")
    assert set(services) == {"db", "app", "caddy", "backup"}
    published = {name: [p["published"] for p in s.get("ports", [])] for name, s in services.items()}
    assert published == {"db": [], "app": [], "caddy": ["80", "443", "443"], "backup": []}, published
    app = services["app"]["environment"]
    assert app["HOUSERULES_PUBLIC_ORIGIN"] == f"https://{DOMAIN}"
    assert services["caddy"]["environment"]["HOUSERULES_DOMAIN"] == DOMAIN
    mounts = {(v["source"].removeprefix(str(ROOT) + "/"), v["target"]) for v in services["caddy"]["volumes"]
              if v["type"] == "bind"}
    assert ("deploy/Caddyfile", "/etc/caddy/Caddyfile") in mounts
    # Certificates live in a named volume (kept across restarts and upgrades).
    named = {v["target"] for v in services["caddy"]["volumes"] if v["type"] == "volume"}
    assert {"/data", "/config"} <= named
    refused = subprocess.run([tool("docker-compose"), "-f", "compose.caddy.yml", "config", "-q"], cwd=ROOT,
                             env={**{k: v for k, v in os.environ.items() if k != "HOUSERULES_DOMAIN"},
                                  "POSTGRES_PASSWORD": "secret"}, capture_output=True, text=True, check=False)
    assert refused.returncode != 0 and "HOUSERULES_DOMAIN" in refused.stderr


def test_every_compose_file_backs_up_daily_with_retention_using_the_servers_own_image() -> None:
    for path in COMPOSE_FILES:
        services = _services(path)
        backup = services["backup"]
        assert backup["image"] == services["db"]["image"], path  # pg_dump never older than the server
        assert backup["entrypoint"] == ["/bin/sh", "/usr/local/bin/houserules-backup", "--loop"], path
        env = backup["environment"]
        assert env["PGHOST"] == "db" and env["PGPASSWORD"] == "secret" and env["BACKUP_KEEP_DAYS"] == "14"
        mounts = {v["target"]: v["source"] for v in backup["volumes"]}
        assert mounts["/usr/local/bin/houserules-backup"] == str(ROOT / "deploy" / "backup.sh"), path
        assert mounts["/backups"] == str(ROOT / "backups"), path
        assert backup["depends_on"]["db"]["condition"] == "service_healthy"
    assert "backups" in (ROOT / ".dockerignore").read_text().splitlines()


def test_metrics_token_reaches_the_app_in_every_compose_file() -> None:
    for path in COMPOSE_FILES:
        result = subprocess.run(
            [tool("docker-compose"), "-f", path, "config"], cwd=ROOT, capture_output=True, text=True,
            env={**os.environ, "POSTGRES_PASSWORD": "secret", "HOUSERULES_DOMAIN": DOMAIN,
                 "HOUSERULES_METRICS_TOKEN": "scrape-me"}, check=False)
        assert result.returncode == 0, result.stderr
        app = yaml.safe_load(result.stdout)["services"]["app"]["environment"]
        assert app["HOUSERULES_METRICS_TOKEN"] == "scrape-me", path
