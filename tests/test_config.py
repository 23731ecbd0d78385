"""Settings from the environment: database URL forms, the SQLite default, origins."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings


@pytest.mark.parametrize(("given", "url"), [
    ("postgres://u:p@db:5432/h", "postgresql+asyncpg://u:p@db:5432/h"),
    ("postgresql://u:p@db/h", "postgresql+asyncpg://u:p@db/h"),
    ("postgresql+asyncpg://u@db/h", "postgresql+asyncpg://u@db/h"),
    ("sqlite:////srv/h.sqlite3", "sqlite+aiosqlite:////srv/h.sqlite3"),
])
def test_database_url_forms(monkeypatch: pytest.MonkeyPatch, given: str, url: str) -> None:
    monkeypatch.setenv("DATABASE_URL", given)
    assert Settings().url == url


def test_sqlite_in_the_data_dir_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("HOUSERULES_DATA_DIR", str(tmp_path / "data"))
    settings = Settings()
    assert settings.url == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'houserules.sqlite3'}"
    settings.ensure_data_dir()
    assert (tmp_path / "data").is_dir()


def test_host_port_and_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("HOUSERULES_PORT", "8080")  # docker compose's published port, not ours
    monkeypatch.setenv("HOUSERULES_ALLOWED_ORIGINS", "https://a.example, https://b.example/")
    settings = Settings()
    assert (settings.host, settings.port) == ("0.0.0.0", 9000)
    assert settings.allowed_origins == ["https://a.example", "https://b.example"]


def test_database_url_from_separate_settings_quotes_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.engine import make_url

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("HOUSERULES_DB_HOST", "db")
    monkeypatch.setenv("HOUSERULES_DB_PASSWORD", "p@ss:w/rd%?#&=x y")
    settings = Settings()
    url = make_url(settings.url)
    assert (url.drivername, url.host, url.port, url.username, url.database) == (
        "postgresql+asyncpg", "db", 5432, "houserules", "houserules")
    assert url.password == "p@ss:w/rd%?#&=x y"
    assert "p@ss" not in settings.safe_url and "***" in settings.safe_url
    # DATABASE_URL, when given, wins.
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@other/h")
    assert Settings().url == "postgresql+asyncpg://u:p@other/h"


def test_public_origin_log_level_and_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOUSERULES_PUBLIC_ORIGIN", "https://cards.example/")
    monkeypatch.setenv("HOUSERULES_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("HOUSERULES_TRUSTED_PROXIES", "172.18.0.0/16")
    settings = Settings()
    assert settings.public_origin == "https://cards.example" and settings.public_host == "cards.example"
    assert settings.log_level == "warning" and settings.trusted_proxies == "172.18.0.0/16"
    monkeypatch.setenv("HOUSERULES_PUBLIC_ORIGIN", "cards.example")
    with pytest.raises(ValueError):
        Settings()


def test_fair_wait_is_documented_default_and_settable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOUSERULES_FAIR_WAIT_SECONDS", raising=False)  # tests/conftest.py sets it
    assert Settings().fair_wait_seconds == 1.5
    monkeypatch.setenv("HOUSERULES_FAIR_WAIT_SECONDS", "0")
    assert Settings().fair_wait_seconds == 0
    monkeypatch.setenv("HOUSERULES_FAIR_WAIT_SECONDS", "-1")
    with pytest.raises(ValueError):
        Settings()


def test_a_fixed_seed_is_refused_unless_test_settings_are_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().test_fixed_seed is None and not Settings().allow_test_settings
    monkeypatch.setenv("HOUSERULES_TEST_FIXED_SEED", "kill-1")
    with pytest.raises(ValueError, match="HOUSERULES_ALLOW_TEST_SETTINGS"):
        Settings()
    monkeypatch.setenv("HOUSERULES_ALLOW_TEST_SETTINGS", "1")
    assert Settings().test_fixed_seed == "kill-1"


def test_fixed_server_seeds_repeat_and_differ_from_each_other() -> None:
    from app.games import fair

    try:
        fair.fix_server_seeds("kill-1")
        first = [fair.new_server_seed() for _ in range(3)]
        fair.fix_server_seeds("kill-1")
        assert [fair.new_server_seed() for _ in range(3)] == first
        assert len(set(first)) == 3
        assert all(len(seed) == 2 * fair.SERVER_SEED_BYTES and len(nonce) == 2 * fair.NONCE_BYTES
                   for seed, nonce in first)
        fair.fix_server_seeds("kill-2")
        assert fair.new_server_seed() not in first
    finally:
        fair.fix_server_seeds(None)
    assert fair.new_server_seed() not in first
