"""Message schemas: every client message is validated here before a room sees it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

MsgId = Annotated[str, Field(min_length=1, max_length=64)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Msg):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    last_version: Annotated[int, Field(ge=0)] | None = None
    lang: Annotated[str, Field(max_length=8)] | None = None


class ActionMsg(_Msg):
    type: Literal["action"]
    id: MsgId
    version: Annotated[int, Field(ge=0)] | None = None
    action: dict[str, Any]


class ChatMsg(_Msg):
    type: Literal["chat"]
    id: MsgId
    text: Annotated[str, Field(max_length=2000)]


class HostMsg(_Msg):
    type: Literal["host"]
    id: MsgId
    op: Literal["start", "approve", "reject", "kick", "handover", "rematch", "sheet", "add_bot", "remove_bot"]
    seat: int | None = None
    level: Literal["easy", "good"] | None = None
    request: int | None = None
    options: dict[str, Any] | None = None


class PingMsg(_Msg):
    type: Literal["ping"]
    id: MsgId


ClientMessage = Annotated[ActionMsg | ChatMsg | HostMsg | PingMsg | Hello, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ActionMsg | ChatMsg | HostMsg | PingMsg | Hello] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("hello", "action", "chat", "host", "ping")


# -- HTTP bodies ---------------------------------------------------------------------------------

class SheetIn(_Msg):
    game: Annotated[str, Field(max_length=32)]
    name: Annotated[str, Field(max_length=200)]
    preset: Annotated[str, Field(max_length=64)] | None = None
    options: dict[str, Any] | None = None


class SheetUpdate(_Msg):
    options: dict[str, Any]
    name: Annotated[str, Field(max_length=200)] | None = None


class SheetOut(BaseModel):
    id: str
    version: int
    game: str
    name: str
    options: dict[str, Any]


class RoomIn(_Msg):
    game: Annotated[str, Field(max_length=32)]
    name: Annotated[str, Field(max_length=200)]
    seats: Annotated[int, Field(ge=1, le=32)]
    preset: Annotated[str, Field(max_length=64)] | None = None
    options: dict[str, Any] | None = None
    sheet_id: Annotated[str, Field(max_length=32)] | None = None
    sheet_version: int | None = None
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
    presets: dict[str, dict[str, Any]]
    schema_: dict[str, Any] = Field(alias="schema")

    model_config = ConfigDict(populate_by_name=True)


class ErrorOut(BaseModel):
    code: str
    message: str
    option: str | None = None
