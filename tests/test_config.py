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
