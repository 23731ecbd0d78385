"""The self-hosting files: no Docker engine runs here, so check what can be checked without one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


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
    assert copies == ["COPY . ."], copies  # no --chown: the code stays root's, read-only for the app
    assert "chown houserules:houserules /data" in text
    # The app's user takes over only after the install, and the data folder is its volume.
    assert text.index("RUN pip install") < text.index("\nUSER 10001")
    assert 'VOLUME ["/data"]' in text and "HOUSERULES_DATA_DIR=/data" in text


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
    assert "hash $room consistent;" in nginx and "server app:8000;" in nginx
    for path in ("^/ws/", "^/r/", "^/api/rooms/"):
        assert path in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx


def _compose(path: str) -> str:
    result = subprocess.run([tool("docker-compose"), "-f", path, "config"], cwd=ROOT,
                            env={**os.environ, "POSTGRES_PASSWORD": "secret"}, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_shipped_config_names_its_trusted_proxies_exactly() -> None:
    """A trusted ``*`` with nginx appending to X-Forwarded-For let every client choose its address:
    the scaled setup trusts exactly its own compose network, whose subnet it fixes."""
    import ipaddress
    import re

    for path in ("compose.scale.yml", "docker-compose.yml"):
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
