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
    assert "postgresql+asyncpg://houserules:secret@db:5432/houserules" in config


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
