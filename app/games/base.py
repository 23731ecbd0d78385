"""The game contract every game implements, and the pieces they share.

A game is an object with a small surface (see ``Game``): a rule-sheet model with presets,
``new`` to deal, ``legal_actions`` and ``apply`` to move, ``view`` to show one seat (or a
spectator) what it may see (``views``: many seats at once), ``outcome``, ``to_act`` and
``timeout_action``, and ``dump``/``load`` to turn a state into JSON and back exactly. Rooms,
bots, the log and the generic tests use only this surface and never ask which game they run.

Rules:
- ``apply`` never changes the state it is given; it returns a new state and the events.
- ``apply`` raises ``IllegalAction(code, message)`` for anything not legal, and
  ``legal_actions`` and ``apply`` share one legality check.
- Randomness enters only through ``new`` (the seed); a game replays from sheet, seed and log.
- ``view`` (and ``views``, many views at once) is the only way game state leaves the server.

State, one idiom in every game: a state is a frozen dataclass, and a move builds the next one
with a small builder and freezes it.

- The state a game returns (from ``new``, ``apply`` and ``load``) is frozen: setting a field
  raises ``FrozenInstanceError``. Palace declares ``Table`` ``frozen=True`` (with tuples, so it
  is frozen all through); the larger states of Thousand and Hold'em are a plain dataclass (the
  shape, which is the builder) and a frozen subclass that adds only the ``Frozen`` mixin
  (``FrozenState(State, Frozen)``). Their lists, and Hold'em's ``Hand``, are the move's own copies,
  reached only through the frozen state and never changed after the move (the property suite
  checks that ``apply`` leaves its input as it was).
- ``apply`` checks the move, copies the state into its builder (Palace's ``_Move``, Thousand's
  ``State.copy``, Hold'em's ``State.clone``), lets the rules change the builder, and returns
  ``freeze(builder, ...)``: the finished state, in place and at no cost. The builder copies what
  a move changes and shares the rest, so a move is cheap, and nobody holds the builder afterwards.
- A state has an exact JSON form (``dump``/``load``); ``load`` accepts dumps without the fields
  added later, since rooms store them.
- Legality is one check per game, used by both ``legal_actions`` and ``apply``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.games.fair import Shuffle

Action = dict[str, Any]
"""A move as a small JSON object with a ``type``, e.g. ``{"type": "play", "cards": ["Qs", "Qh"]}``."""


T = TypeVar("T")


class Frozen:
    """The mixin of a game's finished states: no field may be set or deleted (see "State" above)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a finished state never changes")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a finished state never changes")


def freeze(builder: Any, frozen: type[T]) -> T:
    """``builder`` turned into the finished state ``frozen``, in place: ``frozen`` is a subclass of
    the builder's class that adds only ``Frozen``. The builder must not be used afterwards."""
    object.__setattr__(builder, "__class__", frozen)
    return cast(T, builder)


def each_seat(seats: Iterable[int | None], build: Callable[[int | None], T]) -> dict[int | None, T]:
    """``build(seat)`` for each seat of ``seats`` once (repeats are asked once), in their order:
    what ``Game.views`` returns."""
    out: dict[int | None, T] = {}
    for seat in seats:
        if seat not in out:
            out[seat] = build(seat)
    return out


class IllegalAction(Exception):
    """A move or input the rules refuse. ``code`` is stable for machines, ``message`` is for people.

    A message never names a card the acting seat may not see.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class InvalidSheet(IllegalAction):
    """A rule sheet that cannot be played; ``option`` names the offending option (or ``None``)."""

    def __init__(self, option: str | None, message: str) -> None:
        super().__init__("invalid_sheet", message)
        self.option = option


@dataclass(frozen=True)
class Event:
    """One line of the action log.

    ``audience`` says who may see it: ``None`` is everyone (spectators too), a tuple of seats is
    those seats only, and ``()`` is nobody yet (kept for the record, revealed by no view).
    A game emits a public event and a private one when a move has a secret part
    ("seat 2 drew a card" to all, "you drew the Qs" to seat 2).
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        if self.audience is None:
            return True
        return seat is not None and seat in self.audience

    def to_json(self) -> dict[str, Any]:
        # The type comes last: a key of the data never replaces it.
        return {**dict(self.data), "type": self.type}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``placings`` lists groups of seats from first place to last (ties share a group);
    ``scores`` holds each seat's final score or chips where the game keeps one.
    """

    placings: tuple[tuple[int, ...], ...]
    scores: Mapping[int, int] = field(default_factory=dict)
    reason: str = "finished"

    def to_json(self) -> dict[str, Any]:
        return {
            "placings": [list(group) for group in self.placings],
            "scores": {str(k): v for k, v in self.scores.items()},
            "reason": self.reason,
        }


def option(default: Any, en: str, et: str, fi: str, **kwargs: Any) -> Any:
    """A rule-sheet field with its one-line description in English, Estonian and Finnish.

    The English line is the JSON schema's ``description``; all three are under ``i18n``,
    which the browser's generated rule-sheet form reads.
    """
    extra = dict(kwargs.pop("json_schema_extra", None) or {})
    extra["i18n"] = {"en": en, "et": et, "fi": fi}
    return Field(default, description=en, json_schema_extra=extra, **kwargs)


class RuleSheetBase(BaseModel):
    """Every game's rule sheet derives from this: frozen, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2

    turn_timer_seconds: int = option(
        0,
        "Seconds a player has for a move before the default move is made for them; 0 is no timer.",
        "Sekundid käigu jaoks, enne kui mängija eest tehakse vaikimisi käik; 0 tähendab taimerit pole.",
        "Sekunnit siirtoa kohden, ennen kuin pelaajan puolesta tehdään oletussiirto; 0 = ei ajastinta.",
        ge=0,
        le=3600,
    )
    time_bank_seconds: int = option(
        0,
        "Extra seconds per player for the whole game, used when the turn timer runs out.",
        "Lisasekundid mängijale kogu mänguks, kui käigu taimer saab täis.",
        "Lisäsekunnit pelaajalle koko peliksi, kun siirtoajastin loppuu.",
        ge=0,
        le=3600,
    )

    decision_timer_seconds: int = option(
        10,
        "Seconds for an optional decision (show or muck, run it twice, straddle, a lottery guess) "
        "before the quiet choice is made for the player, with or without a turn timer; 0 waits.",
        "Sekundid valikulise otsuse jaoks (näita või viska, jooksuta kaks korda, straddle, loteriis "
        "arvamine), enne kui mängija eest tehakse vaikne valik, ka ilma käigutaimerita; 0 ootab.",
        "Sekunnit vapaaehtoiselle päätökselle (näytä tai heitä, aja kahdesti, straddle, arpajaisten "
        "arvaus), ennen kuin pelaajan puolesta tehdään hiljainen valinta, myös ilman ajastinta; 0 odottaa.",
        ge=0,
        le=600,
    )

    # 90 s: long enough to come back after a dropped connection or a phone call's first minute,
    # short enough that the friends waiting do not give up on the evening.
    bot_takeover_seconds: int = option(
        90,
        "Seconds a player may be disconnected before a bot plays for them until they return; 0 is never.",
        "Sekundid, mille järel lahkunud mängija eest mängib robot, kuni ta naaseb; 0 tähendab mitte kunagi.",
        "Sekunnit, joiden jälkeen poistuneen pelaajan puolesta pelaa botti, kunnes hän palaa; 0 = ei ikinä.",
        ge=0,
        le=3600,
    )

    def min_players(self) -> int:
        return self.MIN_PLAYERS

    def max_players(self) -> int:
        return self.MAX_PLAYERS

    def check_players(self, players: int) -> None:
        """Refuse a player count this sheet cannot deal for (raises ``InvalidSheet``)."""
        if not self.min_players() <= players <= self.max_players():
            raise InvalidSheet(
                None,
                f"This sheet is for {self.min_players()}–{self.max_players()} players, not {players}.",
            )


SheetT = TypeVar("SheetT", bound=RuleSheetBase)
StateT = TypeVar("StateT")


def sheet_error_message(error: ValidationError) -> tuple[str | None, str]:
    """The first problem of a pydantic error as (option, sentence)."""
    first = error.errors()[0]
    loc = ".".join(str(part) for part in first.get("loc", ())) or None
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        return loc, f"Unknown option {loc!r}."
    return loc, f"Option {loc!r}: {first.get('msg', 'invalid value')}."


class Game(ABC, Generic[StateT, SheetT]):
    """The surface every game offers. Subclasses are stateless; one instance serves all rooms."""

    name: ClassVar[str]
    titles: ClassVar[Mapping[str, str]]
    RuleSheet: type[SheetT]
    presets: Mapping[str, SheetT]

    server_actions: ClassVar[frozenset[str]] = frozenset()
    """Action types only the room server makes (e.g. a clock); it never accepts them from a client.
    ``apply`` takes them for any seat index; the server applies them as seat 0 and logs them with
    no seat."""

    host_actions: ClassVar[frozenset[str]] = frozenset()
    """Action types the room server accepts only from the host's seat (e.g. closing a table)."""

    reseeds: ClassVar[bool] = False
    """Whether the game deals more than once (Hold'em hands, Thousand deals) and takes the server
    action ``reseed`` (``fair.RESEED``): the room then starts a fresh fair round for each later
    shuffle, sealed just before the move that makes it (``docs/fairness.md``)."""

    # -- rule sheets -------------------------------------------------------------------------

    def sheet(self, data: Mapping[str, Any] | None = None, *, preset: str | None = None) -> SheetT:
        """A validated sheet from a preset and/or explicit options; raises ``InvalidSheet``."""
        base: dict[str, Any] = {}
        if preset is not None:
            if preset not in self.presets:
                choices = ", ".join(self.presets)
                raise InvalidSheet(None, f"Unknown preset {preset!r}; choose one of {choices}.")
            base = self.presets[preset].model_dump()
        if data is not None and not isinstance(data, Mapping):
            raise InvalidSheet(None, "A rule sheet is a JSON object of options.")
        base.update(data or {})
        try:
            sheet = self.RuleSheet.model_validate(base)
        except ValidationError as error:
            raise InvalidSheet(*sheet_error_message(error)) from None
        self.check_sheet(sheet)
        return sheet

    def check_sheet(self, sheet: SheetT) -> None:
        """Refuse impossible combinations of options (override; raise ``InvalidSheet``)."""

    def sheet_schema(self) -> dict[str, Any]:
        """The rule sheet's JSON schema with the form's layout extras (``form_layout``)."""
        from app.games.form_layout import with_layout  # the layout imports the games' own modules

        return with_layout(self.name, self.RuleSheet.model_json_schema())

    # -- the game ----------------------------------------------------------------------------

    @abstractmethod
    def new(
        self,
        sheet: SheetT,
        players: int,
        *,
        seed: str | None = None,
        deck: Sequence[str] | None = None,
    ) -> StateT:
        """Deal a new game for seats ``0 .. players-1``.

        ``seed`` (a string; a fresh CSPRNG one when None) drives every shuffle of the game;
        ``deck`` (card codes, top first) fixes the first deal instead, for tests and replays.
        """

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """Every move ``seat`` may make now (empty when it may not act)."""

    def table_actions(self, state: StateT, seat: int) -> list[Action]:
        """Moves open to ``seat`` at any time, outside the turn order (joining, leaving, sitting out,
        topping up at a table game). They are not in ``legal_actions`` and do not make a seat one
        that the table waits for; ``apply`` accepts them whenever they are listed here."""
        return []

    def auto_action(self, state: StateT, seat: int) -> Action | None:
        """The move the room server makes at once for ``seat`` when it is to act, without waiting
        for the player or a timer (a seat that asked to be skipped, e.g. a tournament player
        sitting out and being blinded away). ``None`` (the default): wait for the player."""
        return None

    def clock_action(self, state: StateT, now: float) -> Action | None:
        """A server action telling the game the time (``now``: Unix seconds), when it would change
        anything (e.g. start a blind clock, or raise the blind level). The room server asks before
        every move it applies (players' moves, timeouts) and right after a deal, and applies the
        answer first; ``None`` (the default): the game reads no clock."""
        return None

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: Mapping[str, Any]) -> tuple[StateT, list[Event]]:
        """The state after ``seat`` makes ``action``, and the events; raises ``IllegalAction``."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """All that ``seat`` may see (``None``: a spectator), as JSON-ready data."""

    def views(self, state: StateT, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` (``None``: a spectator), each exactly what ``view`` gives: for
        every ``s`` in ``seats`` (repeats allowed), ``views(state, seats)[s] == view(state, s)``.

        The fan-out after a move asks for every seat at once: a game overrides this to build the
        part all seats share (the public table) once and add each seat's own part. The views are
        read-only: they may share lists and dicts with one another (never a seat's own part: its
        hand, a card it drew, what only it may see), so they are serialized as they are and never
        changed. The default calls ``view`` for each seat.
        """
        return each_seat(seats, lambda seat: self.view(state, seat))

    def view_between(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """``state`` as ``view`` draws it, but without the part of the game (a hand, a deal) that
        the last move began: the table as the part before it ended. The replay of a game still in
        play stops there, and shows nothing of the part in play. The default is the spectator's
        view, which holds no seat's cards."""
        return self.view(state, None)

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while the game goes on."""

    @abstractmethod
    def to_act(self, state: StateT) -> list[int]:
        """The seats that may act now."""

    def turn_seats(self, state: StateT) -> list[int]:
        """The seats whose turn it is: those of ``to_act`` the table waits for, as opposed to seats
        that merely may move out of turn (a look or a claim before Thousand's bidding). The room's
        turn timer and time bank run for these seats only: only they are charged and timed out.
        The default: every seat to act."""
        return self.to_act(state)

    @abstractmethod
    def timeout_action(self, state: StateT, seat: int) -> Action | None:
        """The move made for ``seat`` when its turn timer runs out (``None``: nothing to do)."""

    @abstractmethod
    def dump(self, state: StateT) -> dict[str, Any]:
        """The state as JSON-ready data; ``load(dump(s)) == s``. Holds secrets: server-side only."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> StateT:
        """The state back from ``dump``."""

    def optional_decision(self, state: StateT, seat: int) -> bool:
        """Whether ``seat``, to act, faces only an optional decision with a quiet default (show or
        muck, a straddle, a lottery guess): the room then gives it the sheet's short
        ``decision_timer_seconds`` and makes ``timeout_action`` for it, even with no turn timer."""
        return False

    def history(
        self, state: StateT, seat: int | None, names: Mapping[int, str] | None = None
    ) -> tuple[str, str] | None:
        """The finished deals in the game's own exchange format, as ``seat`` may see them;
        ``names`` (by seat) names the players where the format has names.

        Returns ``(file name, text)``, or ``None`` for a game that has no such format. Like a view,
        it never holds a card that ``seat`` (``None``: a spectator) may not see.
        """
        return None

    def shuffles(self, state: StateT, since: int = 0) -> list[Shuffle]:
        """The shuffles this game has made from its seed so far, in order, each with its label and
        unshuffled cards, and whether all its cards may now be known (``fair``: the room publishes
        each shuffle's key commitment when it appears and the key when it opens); from the
        ``since``-th on (the room asks only for those it has not seen open, so a long table's
        earlier hands cost nothing). A game dealt from fixed decks lists what a seeded one would
        have shuffled. Default: none."""
        return []

    def current_round(self, state: StateT) -> Mapping[str, Any] | None:
        """The fair round (``reseed``) that keys the shuffles made from now on; ``None``: the game's
        own seed does."""
        return None

    def shuffle_count(self, state: StateT) -> int:
        """How many shuffles the game has made (``len(shuffles(state))``, which a game that reseeds
        answers without listing them: the room asks after every commit)."""
        return len(self.shuffles(state))

    def seat_count(self, state: StateT) -> int:
        """How many seats the state has (a table game may grow it by joins)."""
        return int(self.view(state, None).get("seats", 0))

    # -- shared helpers ----------------------------------------------------------------------

    def replay(
        self,
        sheet: SheetT,
        players: int,
        seed: str | None,
        log: Iterable[tuple[int, Mapping[str, Any]]],
        *,
        deck: Sequence[str] | None = None,
    ) -> StateT:
        """The state reached from a new deal by applying ``log`` (seat, action) in order."""
        state = self.new(sheet, players, seed=seed, deck=deck)
        for seat, action in log:
            state, _ = self.apply(state, seat, action)
        return state


def require_type(action: Mapping[str, Any], known: Iterable[str]) -> str:
    """The action's ``type`` if it is one of ``known``; else ``IllegalAction('unknown_action')``."""
    if not isinstance(action, Mapping):
        raise IllegalAction("bad_action", "An action is a JSON object with a 'type'.")
    kind = action.get("type")
    names = list(known)
    if not isinstance(kind, str) or kind not in names:
        raise IllegalAction("unknown_action", f"Unknown action type; expected one of: {', '.join(names)}.")
    return kind
