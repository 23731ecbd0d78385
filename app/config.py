"""Settings from the environment (pydantic-settings).

``DATABASE_URL`` picks the store (SQLite in the data directory when unset), ``HOST``/``PORT``
where ``python -m app`` listens; everything else is ``HOUSERULES_*``.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HOUSERULES_", extra="ignore")

    database_url: str | None = Field(
        None, validation_alias=AliasChoices("DATABASE_URL", "HOUSERULES_DATABASE_URL")
    )
    data_dir: Path = Path("data")
    # Plain HOST/PORT (HOUSERULES_PORT is docker compose's published port, not this one).
    host: str = Field("127.0.0.1", validation_alias="HOST")
    port: int = Field(8000, validation_alias="PORT")
    # Origins (scheme://host[:port]) allowed to open the WebSocket besides the page's own host.
    allowed_origins: Annotated[list[str], NoDecode] = []
    # A snapshot of the game state is stored every this many moves (and at every deal).
    snapshot_every: int = Field(50, ge=1)
    # Apply the Alembic migrations when the app starts.
    migrate: bool = True
    # WebSocket limits: largest frame (bytes), messages per second and burst before a close.
    ws_max_size: int = 16 * 1024
    ws_rate: float = 20.0
    ws_burst: int = 60
    # Seconds a new socket has to send its hello.
    hello_timeout: float = 10.0
    chat_max_length: int = 300
    max_spectators: int = 100
    # Seconds a bot waits before its move, drawn evenly from this range (people need a moment
    # to follow a bot's move; 0 and 0 in tests).
    bot_delay_min: float = Field(0.6, ge=0)
    bot_delay_max: float = Field(1.5, ge=0)

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip().rstrip("/") for part in value.split(",") if part.strip()]
        return value

    @cached_property
    def url(self) -> str:
        """The SQLAlchemy async URL; the SQLite file lives in the data directory by default."""
        if self.database_url:
            url = self.database_url
            if url.startswith("postgres://"):
                url = "postgresql://" + url[len("postgres://"):]
            if url.startswith("postgresql://"):
                url = "postgresql+asyncpg://" + url[len("postgresql://"):]
            if url.startswith("sqlite:///"):
                url = "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
            return url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'houserules.sqlite3').as_posix()}"

    def ensure_data_dir(self) -> None:
        if self.url.startswith("sqlite") and not self.database_url:
            self.data_dir.mkdir(parents=True, exist_ok=True)
