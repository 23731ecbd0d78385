"""The Docker image's own recipe, run without Docker: copy the tree, install it into a fresh
virtual environment exactly as the Dockerfile does, start ``python -m app`` (migrate, then serve)
and check it answers its health check, on SQLite and on PostgreSQL (as docker compose runs it)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from tests.support import ROOT, free_port, fresh_postgres_sync, needs_postgres

# About 25 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(25)

IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "venv", "data", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
    "test-artifacts", "*.egg-info",
)


def dockerfile_run_steps() -> list[str]:
    """The Dockerfile's RUN line that installs the dependencies (the test runs the same command)."""
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    return [line.removeprefix("RUN ").strip() for line in lines if line.startswith("RUN pip install")]


@pytest.fixture(scope="module")
def image_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The source tree copied as the Dockerfile's COPY does, its locked dependencies installed into
    a fresh venv by the Dockerfile's own command; the code itself is not installed (PYTHONPATH)."""
    base = tmp_path_factory.mktemp("image")
    src = base / "srv"
    shutil.copytree(ROOT, src, ignore=IGNORED)
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    steps = dockerfile_run_steps()
    assert len(steps) == 1 and steps[0].startswith("pip install "), steps
    pip = [str(venv / "bin" / "python"), "-m", *steps[0].split(), "--quiet"]
    subprocess.run(pip, cwd=src, check=True, timeout=600)
    # The Dockerfile's steps run by its Python after the copy (the project's metadata: the games'
    # entry points), as the image runs them.
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    for line in lines:
        if line.startswith("RUN python "):
            step = line.removeprefix("RUN python ").split()
            subprocess.run([str(venv / "bin" / "python"), *step], cwd=src, check=True, timeout=60)
    # Nothing but the lock went in, and the project's own metadata (no code): the app runs from the
    # copied tree.
    listed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, check=True).stdout
    assert "uvicorn==" in listed
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (metadata,) = site.glob("houserules-*.dist-info")
    assert sorted(p.name for p in metadata.iterdir()) == ["INSTALLER", "METADATA", "entry_points.txt"]
    assert not (site / "app").exists()
    return src, venv


def serve_until_healthy(src: Path, venv: Path, env: dict[str, str]) -> str:
    """Serve until healthy; returns what the server printed."""
    port = free_port()
    full_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    full_env.update({"HOST": "127.0.0.1", "PORT": str(port), "PYTHONPATH": str(src), **env})
    proc = subprocess.Popen(
        [str(venv / "bin" / "python"), "-m", "app"], cwd=src, env=full_env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else "exited"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not become healthy in 60 s"
            time.sleep(0.2)
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).json()
        assert {g["name"] for g in games} >= {"palace", "holdem", "thousand"}
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "<html" in page.text.lower()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return proc.stdout.read().decode() if proc.stdout else ""


def test_image_recipe_installs_migrates_and_serves_on_sqlite(image_venv: tuple[Path, Path]) -> None:
    src, venv = image_venv
    data = src / "imagedata"
    output = serve_until_healthy(src, venv, {"HOUSERULES_DATA_DIR": str(data)})
    # The start-up line: where it listens, which database, which limits.
    assert "Houserules listening on http://127.0.0.1:" in output
    assert "database sqlite+aiosqlite:///" in output and "limits: body 65536 B" in output
    quiet = serve_until_healthy(src, venv, {"HOUSERULES_DATA_DIR": str(data),
                                            "HOUSERULES_LOG_LEVEL": "warning"})
    assert "Houserules listening" not in quiet and "GET /healthz" not in quiet
    with sqlite3.connect(data / "houserules.sqlite3") as db:
        (version,) = db.execute("select version_num from alembic_version").fetchone()
    assert version


@needs_postgres
def test_image_recipe_installs_migrates_and_serves_on_postgres(image_venv: tuple[Path, Path]) -> None:
    src, venv = image_venv
    with fresh_postgres_sync() as url:
        serve_until_healthy(src, venv, {"DATABASE_URL": url})
        # As compose passes it: the URL built from parts, a password full of URL characters
        # (the test server trusts local connections, so any password is accepted once parsed).
        parts = make_url(url)
        output = serve_until_healthy(src, venv, {
            "HOUSERULES_DB_HOST": str(parts.host), "HOUSERULES_DB_PORT": str(parts.port or 5432),
            "HOUSERULES_DB_USER": str(parts.username), "HOUSERULES_DB_NAME": str(parts.database),
            "HOUSERULES_DB_PASSWORD": "p@ss:w/rd%?#&"})
        assert f"@{parts.host}:{parts.port or 5432}/{parts.database}" in output
        assert "p@ss" not in output and ":***@" in output
