"""Message schemas: every client message is validated here before a room sees it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from app.rooms.bounds import INT_MAX, MSG_ID_PATTERN, json_problem

MsgId = Annotated[str, Field(min_length=1, max_length=64, pattern=MSG_ID_PATTERN)]
# Versions, seats and request numbers are stored in 32-bit integer columns.
Count = Annotated[int, Field(ge=0, le=INT_MAX)]


def _storable(value: dict[str, Any]) -> dict[str, Any]:
    problem = json_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


# A game action or a sheet's options: stored as JSON, so no NUL, no lone surrogate, no huge number.
StorableJson = Annotated[dict[str, Any], AfterValidator(_storable)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Msg):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    last_version: Count | None = None
    lang: Annotated[str, Field(max_length=8)] | None = None


class ActionMsg(_Msg):
    type: Literal["action"]
    id: MsgId
    version: Count | None = None
    action: StorableJson


class ChatMsg(_Msg):
    type: Literal["chat"]
    id: MsgId
    text: Annotated[str, Field(max_length=2000)]


class HostMsg(_Msg):
    type: Literal["host"]
    id: MsgId
    op: Literal["start", "approve", "reject", "kick", "handover", "rematch", "sheet", "add_bot", "remove_bot",
                "stand_in", "skip"]
    seat: Count | None = None
    level: Literal["easy", "good", "strong"] | None = None
    request: Count | None = None
    options: StorableJson | None = None


class PingMsg(_Msg):
    type: Literal["ping"]
    id: MsgId


class LeaveMsg(_Msg):
    """A member gives up their seat (or request) for good: the seat is free for someone else."""

    type: Literal["leave"]
    id: MsgId


class EntropyMsg(_Msg):
    """A seated player's random contribution to the next deal (docs/fairness.md)."""

    type: Literal["entropy"]
    id: MsgId
    # Checked by the room (``bad_contribution``, ``stale_commitment``), as docs/protocol.md says.
    commitment: Annotated[str, Field(max_length=128)]
    # Phase one sends ``hash`` (SHA-256 of the bytes), phase two the ``bytes``: one of them.
    bytes: Annotated[str, Field(max_length=128)] | None = None
    hash: Annotated[str, Field(max_length=128)] | None = None


AnyMessage = ActionMsg | ChatMsg | HostMsg | PingMsg | LeaveMsg | EntropyMsg | Hello
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("hello", "action", "chat", "host", "ping", "leave", "entropy")


# -- HTTP bodies ---------------------------------------------------------------------------------

class SheetIn(_Msg):
    game: Annotated[str, Field(max_length=32)]
    name: Annotated[str, Field(max_length=200)]
    preset: Annotated[str, Field(max_length=64)] | None = None
    options: StorableJson | None = None


class SheetUpdate(_Msg):
    options: StorableJson
    name: Annotated[str, Field(max_length=200)] | None = None


class SheetOut(BaseModel):
    id: str
    version: int
    game: str
    name: str
    options: dict[str, Any]
    # Only in the answer to a save or a copy: the secret that lets its holder change the sheet.
    edit_token: str | None = None


class SheetCopy(_Msg):
    name: Annotated[str, Field(max_length=200)] | None = None


class RoomIn(_Msg):
    game: Annotated[str, Field(max_length=32)]
    name: Annotated[str, Field(max_length=200)]
    seats: Annotated[int, Field(ge=1, le=32)]
    preset: Annotated[str, Field(max_length=64)] | None = None
    options: StorableJson | None = None
    sheet_id: Annotated[str, Field(max_length=32)] | None = None
    sheet_version: Annotated[int, Field(ge=1, le=INT_MAX)] | None = None
    approval: bool = False


class RoomCreated(BaseModel):
    room: str
    invite: str
    seat: int
    token: str


class JoinIn(_Msg):
    name: Annotated[str, Field(max_length=200)]
    seat: Annotated[int, Field(ge=0, le=31)] | None = None


class Joined(BaseModel):
    seat: int | None = None
    pending: bool = False
    request: int | None = None
    token: str


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    connected: bool
    host: bool
    free: bool
    bot: str | None = None  # a bot's level: a friend may still take its seat
    # Nobody stalls the table (app/rooms/standin.py): a bot plays an away person's seat now, the
    # seconds until one does, a newcomer takes over the seat's cards, the host may skip its turn.
    stand_in: bool = False
    takeover_in: float | None = None
    takes_over: bool = False
    skip: bool = False


class RoomInfo(BaseModel):
    room: str
    game: str
    status: Literal["lobby", "playing", "finished"]
    capacity: int
    players: int
    version: int
    game_no: int
    approval: bool
    sheet: dict[str, Any]
    seats: list[SeatInfo]
    spectators: int
    pending: list[dict[str, Any]]


class GameInfo(BaseModel):
    name: str
    titles: dict[str, str]
    min_players: int
    max_players: int
    players: dict[str, list[int]]
    presets: dict[str, dict[str, Any]]
    # The preset a page in each language opens on (the seed written in that language).
    language_presets: dict[str, str] = {}
    schema_: dict[str, Any] = Field(alias="schema")

    model_config = ConfigDict(populate_by_name=True)


class ErrorOut(BaseModel):
    code: str
    message: str
    option: str | None = None
