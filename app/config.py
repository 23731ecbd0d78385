"""Settings from the environment (pydantic-settings).

``DATABASE_URL`` picks the store (SQLite in the data directory when unset), ``HOST``/``PORT``
where ``python -m app`` listens; everything else is ``HOUSERULES_*``.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import quote, urlsplit

from pydantic import AliasChoices, Field, field_validator, model_validator
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
    # PostgreSQL from separate settings (when DATABASE_URL is unset and db_host is set): the URL is
    # built here with each part quoted, so a password may hold any character (@, :, /, %, …).
    db_host: str | None = None
    db_port: int = 5432
    db_user: str = "houserules"
    db_password: str = ""
    db_name: str = "houserules"
    # The address players open (scheme://host[:port]). When set, only it and ``allowed_origins``
    # may open the WebSocket and the Host header must be its host; unset, a page may open sockets
    # to the host it came from (LAN use).
    public_origin: str | None = None
    # Origins (scheme://host[:port]) allowed to open the WebSocket besides the page's own host.
    allowed_origins: Annotated[list[str], NoDecode] = []
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (uvicorn's
    # forwarded_allow_ips: comma-separated addresses or networks, "*" for any).
    trusted_proxies: str = "127.0.0.1"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # A snapshot of the game state is stored every this many moves (and at every deal).
    snapshot_every: int = Field(50, ge=1)
    # The group commit sends a batch at most once in this many milliseconds: under load more
    # rooms' moves share one statement (fewer round trips to the database), for at most this much
    # more latency; a move after a quiet moment goes at once. 0: a batch as soon as the last one
    # is stored.
    commit_gap_ms: float = Field(3.0, ge=0, le=100)
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
    # A watcher who comes or goes changes only the room's watcher count: it is announced to the
    # room at most once in this many seconds, as a small ``spectators`` message (presence.py).
    spectator_count_seconds: float = Field(1.0, gt=0)
    # Largest HTTP request body in bytes (413 above it).
    max_body_bytes: int = Field(64 * 1024, ge=1024)
    # A rule sheet's lists (e.g. blind levels) hold at most this many entries; its options' JSON
    # at most this many bytes (422 above either).
    sheet_max_items: int = Field(50, ge=1)
    sheet_max_bytes: int = Field(16 * 1024, ge=256)
    # Per client address (token buckets, 429 with Retry-After): rooms created, join requests and
    # sheet saves (save, copy, change) a minute; the burst is the same number. 0 turns one off.
    rooms_per_minute: float = Field(10, ge=0)
    joins_per_minute: float = Field(30, ge=0)
    sheet_saves_per_minute: float = Field(10, ge=0)
    # Game records, histories and replay pages fetched a minute: each one replays a game, so a
    # stranger may not make the server do it without end.
    records_per_minute: float = Field(60, ge=0)
    # Join requests waiting for the host's approval in one room.
    max_pending_requests: int = Field(20, ge=1)
    # Sockets one member (token) may hold open at once; a new one closes the oldest.
    max_sockets_per_member: int = Field(4, ge=1)
    # Per member, over all their sockets: moves and host operations a second (and burst), chat
    # lines a minute (and burst). Over it the message is refused with ``rate_limited``.
    member_rate: float = Field(10.0, gt=0)
    member_burst: int = Field(30, ge=1)
    chat_per_minute: float = Field(20.0, gt=0)
    chat_burst: int = Field(5, ge=1)
    # Chat lines kept per room (older ones are deleted).
    chat_keep: int = Field(200, ge=30)
    # A room with no socket attached (and no turn timer running) leaves memory after this many
    # seconds; it is loaded again from the database when someone comes back.
    idle_unload_seconds: float = Field(600.0, gt=0)
    # Lobbies with no change and finished rooms with no change since their end are deleted, with
    # their members, log, snapshots and chat, after this many days (0: kept for ever).
    lobby_retention_days: float = Field(7.0, ge=0)
    finished_retention_days: float = Field(30.0, ge=0)
    # How often the housekeeping (idle unload, expiry) runs, in seconds.
    sweep_seconds: float = Field(30.0, gt=0)
    # Seconds a bot waits before its move, drawn evenly from this range (people need a moment
    # to follow a bot's move; 0 and 0 in tests).
    bot_delay_min: float = Field(0.6, ge=0)
    bot_delay_max: float = Field(1.5, ge=0)
    # Seconds a deal waits for the connected seats' contribution hashes, and then for the bytes of
    # those who sent one (docs/fairness.md, step 3); in play, a round's hashes are sealed this long
    # after the first one came at the latest. 0: deal at once with what is already in (the test
    # servers of scripted clients that never contribute).
    fair_wait_seconds: float = Field(1.5, ge=0)
    # Tests only: every server seed and nonce from a fixed sequence made from this text, so a test's
    # deals repeat from run to run (app/games/fair.py, ``fix_server_seeds``). Anyone who knows it
    # knows every deal: refused unless ``allow_test_settings`` is set too, and unset by default.
    test_fixed_seed: str | None = None
    allow_test_settings: bool = False
    # Per client address: log entries replayed a minute for replays, records and histories (the
    # budget and its burst; 0 turns it off). A request is refused with 429 while the address's
    # budget is in debt; what it replays is charged after it (a long game's first replay walks its
    # log once, each page then costs what it holds).
    replay_entries_per_minute: float = Field(30_000, ge=0)
    # Per client address: sockets saying hello a second (and burst), spectators and players alike;
    # past it the hello is refused with ``rate_limited`` and the socket closed (1008).
    hellos_per_second: float = Field(5.0, ge=0)
    hellos_burst: int = Field(20, ge=1)
    # ``/metrics``: with a token, only ``Authorization: Bearer <token>`` may read it; without one,
    # only a scrape that came straight to the app (no ``X-Forwarded-For``/``Forwarded`` header).
    metrics_token: str | None = None
    # The interactive API pages ``/docs`` and ``/redoc`` (they load scripts from a CDN): off unless set.
    api_docs: bool = False
    # Member rows that hold no seat (refused, left or kicked members; requests never admitted) and
    # saved rule sheets no room uses, untouched this many days, are deleted (0: kept for ever).
    member_retention_days: float = Field(30.0, ge=0)
    sheet_retention_days: float = Field(180.0, ge=0)

    @model_validator(mode="after")
    def _test_settings_allowed(self) -> Settings:
        if self.test_fixed_seed is not None and not self.allow_test_settings:
            raise ValueError("HOUSERULES_TEST_FIXED_SEED makes every deal predictable; it is for test "
                             "servers only and is refused unless HOUSERULES_ALLOW_TEST_SETTINGS=1 is set too")
        return self

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip().rstrip("/") for part in value.split(",") if part.strip()]
        return value

    @field_validator("public_origin", mode="before")
    @classmethod
    def _clean_origin(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().rstrip("/") or None
            if value is not None:
                parts = urlsplit(value)
                if parts.scheme not in ("http", "https") or not parts.netloc or parts.path:
                    raise ValueError("HOUSERULES_PUBLIC_ORIGIN is scheme://host[:port], e.g. https://cards.example")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower_level(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @property
    def public_host(self) -> str | None:
        """The Host header a request must carry when a public origin is set (its host[:port])."""
        return urlsplit(self.public_origin).netloc if self.public_origin else None

    @property
    def safe_url(self) -> str:
        """The database URL without its password, for logs."""
        url = self.url
        parts = urlsplit(url)
        if parts.password is not None:
            url = url.replace(f":{parts.password}@", ":***@", 1)
        return url

    @cached_property
    def url(self) -> str:
        """The SQLAlchemy async URL; the SQLite file lives in the data directory by default."""
        if not self.database_url and self.db_host:
            return (f"postgresql+asyncpg://{quote(self.db_user, safe='')}:{quote(self.db_password, safe='')}"
                    f"@{self.db_host}:{self.db_port}/{quote(self.db_name, safe='')}")
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

    # --- Transport: WebSocket frames and HTTP connections (docs/security.md, "Transport limits").
    # Passed to uvicorn by ``python -m app`` (``app.web.launch``; ``uvicorn --factory`` is refused).
    # Frames a socket sends that carry no message of their own (pings, pongs, empty frames,
    # fragments of a message, anything after a close): this many a second, with this burst, before
    # the socket is closed (1008). A browser sends one pong per server ping (every 20 s).
    ws_control_rate: float = Field(5.0, gt=0)
    ws_control_burst: int = Field(50, ge=1)
    # Bytes the server holds for a socket whose client does not read: over the mark the socket's
    # reading pauses (no more pongs or messages are made for it); still over it after
    # ``ws_stall_seconds``, or over the limit at any moment, the socket is aborted (its transport
    # released, its room slot freed).
    ws_write_mark: int = Field(64 * 1024, ge=1024)
    ws_write_limit: int = Field(1 << 20, ge=4096)
    ws_stall_seconds: float = Field(10.0, gt=0)
    # The kernel's send buffer of a WebSocket (SO_SNDBUF; Linux doubles it): without a cap it grows
    # to the system's maximum (4 MiB here) for a client that does not read, memory the write mark
    # above never sees, so a slow reader would be noticed only megabytes late. 0: the system's own.
    ws_send_buffer: int = Field(64 * 1024, ge=0)
    # HTTP served directly (no proxy in front): seconds to receive a whole request, headers and
    # body (408 and closed past it); the request line and headers at most this many bytes (431);
    # seconds an idle keep-alive connection stays open.
    http_request_timeout: float = Field(10.0, gt=0)
    http_max_header_bytes: int = Field(16 * 1024, ge=1024)
    http_keep_alive_seconds: float = Field(5.0, gt=0)
    # Open connections (HTTP and WebSocket) per client address (IPv6: per /64); more are answered
    # 429 and closed at once. Connections from the trusted proxies are not counted (the proxy
    # limits its clients). 0 turns it off.
    max_connections_per_address: int = Field(100, ge=0)
    # New connections per client address a second, and burst (429 and closed at once past it;
    # trusted proxies apart): a client that reconnects without end costs a handshake each time.
    # 0 turns it off.
    connections_per_second: float = Field(10.0, ge=0)
    connections_burst: int = Field(60, ge=1)
    # Open connections in all (uvicorn's limit_concurrency; 503 past it). 0: the open-file limit
    # less room for the database and files.
    max_connections: int = Field(0, ge=0)
