"""deploy/backup.sh, the backup the compose files run daily (and a host's cron on SQLite): a
running server's database backed up, the backup restored and holding what was played, and
backups older than the retention deleted while newer ones stay."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.e2e.client import make_room
from tests.support import ROOT, ServerProcess, fresh_postgres, needs_postgres

SCRIPT = ROOT / "deploy" / "backup.sh"
DAY = 86400


def aged(folder: Path, name: str, days: float) -> Path:
    """A backup file last modified ``days`` ago (retention goes by modification time)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"an earlier backup")
    when = time.time() - days * DAY
    os.utime(path, (when, when))
    return path


def run_backup(env: dict[str, str]) -> str:
    full = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    full.update(env)
    result = subprocess.run(["sh", str(SCRIPT)], env=full, capture_output=True, text=True, check=False,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


async def test_sqlite_backup_of_a_running_server_restores_and_keeps_only_recent_ones(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path).start()
    try:
        room, _ = await make_room(server.http, 2)
        backups = tmp_path / "backups"
        old = aged(backups, "houserules-20200101T000000Z.sqlite3", days=15)
        recent = aged(backups, "houserules-20200102T000000Z.sqlite3", days=13)
        unrelated = aged(backups, "notes.txt", days=400)
        out = run_backup({"SQLITE_PATH": str(tmp_path / "data" / "houserules.sqlite3"),
                          "BACKUP_DIR": str(backups), "BACKUP_KEEP_DAYS": "14"})
    finally:
        server.stop()
    assert not old.exists() and recent.exists() and unrelated.exists(), out
    assert f"deleted {old}" in out
    made = [p for p in backups.glob("houserules-*.sqlite3") if p not in (old, recent)]
    assert len(made) == 1 and not list(backups.glob("*.partial")), list(backups.iterdir())
    with sqlite3.connect(made[0]) as db:
        assert db.execute("select count(*) from rooms where id = ?", (room,)).fetchone() == (1,)
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)


def test_sqlite_backup_refuses_a_missing_database(tmp_path: Path) -> None:
    full = {**os.environ, "SQLITE_PATH": str(tmp_path / "none.sqlite3"), "BACKUP_DIR": str(tmp_path / "b")}
    full.pop("PGHOST", None)
    result = subprocess.run(["sh", str(SCRIPT)], env=full, capture_output=True, text=True, check=False)
    assert result.returncode != 0 and "no SQLite database" in result.stderr
    assert not list((tmp_path / "b").glob("houserules-*"))


@needs_postgres
async def test_postgres_dump_of_a_running_server_restores_and_keeps_only_recent_ones(tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql-client)")
    async with fresh_postgres() as url, fresh_postgres() as restored_url:
        server = ServerProcess(tmp_path, database_url=url).start()
        try:
            room, _ = await make_room(server.http, 2)
            parts = make_url(url)
            backups = tmp_path / "backups"
            old = aged(backups, "houserules-20200101T000000Z.dump", days=3)
            out = run_backup({"PGHOST": str(parts.host), "PGPORT": str(parts.port or 5432),
                              "PGUSER": str(parts.username), "PGDATABASE": str(parts.database),
                              "BACKUP_DIR": str(backups), "BACKUP_KEEP_DAYS": "2"})
        finally:
            server.stop()
        assert not old.exists() and f"deleted {old}" in out
        made = list(backups.glob("houserules-*.dump"))
        assert len(made) == 1, made
        target = make_url(restored_url)
        env = {**os.environ, "PGHOST": str(target.host), "PGPORT": str(target.port or 5432),
               "PGUSER": str(target.username)}
        subprocess.run(["pg_restore", "--no-owner", "-d", str(target.database), str(made[0])], env=env,
                       check=True, capture_output=True, timeout=120)
        found = subprocess.run(["psql", "-At", "-d", str(target.database), "-c",
                                f"select count(*) from rooms where id = '{room}'"],
                               env=env, check=True, capture_output=True, text=True, timeout=60)
        assert found.stdout.strip() == "1"
