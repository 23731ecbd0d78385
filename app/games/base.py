"""The game contract every game implements, and the pieces they share.

A game is an object with a small surface (see ``Game``): a rule-sheet model with presets,
``new`` to deal, ``legal_actions`` and ``apply`` to move, ``view`` to show one seat (or a
spectator) what it may see (``views``: many seats at once), ``outcome``, ``to_act`` and
``timeout_action``, and ``dump``/``load`` to turn a state into JSON and back exactly. Rooms,
bots, the log and the generic tests use only this surface and never ask which game they run.

Rules:
- ``apply`` never changes the state it is given; it returns a new state and the events.
- Legality is one hook per game, ``check(state, seat, action)`` (pokerkit's verify/can/do in one):
  ``None`` when the move is legal, else the refusal, an ``IllegalAction`` with its stable code and
  its catalogue template. ``apply`` raises exactly what ``check`` returns, before it changes
  anything; ``legal_actions`` lists exactly the moves ``check`` accepts (an amount as its range).
- Randomness enters only through ``new`` (the seed); a game replays from sheet, seed and log.
- ``view`` (and ``views``, many views at once) is the only way game state leaves the server.

State, one idiom in every game: ``copy → mutate → freeze``.

- A state is a dataclass (the shape, which is also the builder of a move) and a frozen subclass
  that adds only the ``Frozen`` mixin (Palace's ``FrozenTable``, Thousand's and Hold'em's
  ``FrozenState``). The state a game returns (from ``new``, ``apply`` and ``load``) is the frozen
  one: setting a field raises ``FrozenInstanceError``.
- ``apply`` checks the move, takes the state's ``copy()`` (the builder: it copies what a move
  changes in place and shares the rest, so a move is cheap), lets the rules change the builder,
  and returns ``freeze(builder, FrozenState)``: the finished state, in place and at no cost. Nobody
  holds the builder afterwards; what it shares is never changed (the property suite checks that
  ``apply`` leaves its input as it was).
- A state has an exact JSON form (``dump``/``load``); ``load`` accepts dumps without the fields
  added later, since rooms store them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

# Refusals live in their own module (``fair`` refuses too); every game imports them from here.
from app.games.errors import IllegalAction as IllegalAction
from app.games.errors import InvalidSheet as InvalidSheet
from app.games.errors import Sentence as Sentence
from app.games.errors import sentence as sentence
from app.games.fair import Shuffle
from app.games.form_layout import GameLayout, placement_of, with_layout
from app.games.sheet_problems import sheet_error_message

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
    the builder's class that adds only ``Frozen``. The builder must not be used afterwards. The
    one way every game freezes a state (``copy → mutate → freeze``, see "State" above)."""
    builder.__class__ = frozen  # the builder's own class: a plain assignment, no mixin in the way
    return cast(T, builder)


def each_seat(seats: Iterable[int | None], build: Callable[[int | None], T]) -> dict[int | None, T]:
    """``build(seat)`` for each seat of ``seats`` once (repeats are asked once), in their order:
    what ``Game.views`` returns."""
    out: dict[int | None, T] = {}
    for seat in seats:
        if seat not in out:
            out[seat] = build(seat)
    return out


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


def option(default: Any, description: str, **kwargs: Any) -> Any:
    """A rule-sheet field with its one-line English description (the JSON schema's
    ``description``). The catalogues (locale/, context "rule-sheet help") give its Estonian and
    Finnish text, found by the English with its rule ids taken out; the browser's generated form
    reads them from there."""
    return Field(default, description=description, **kwargs)


class RuleSheetBase(BaseModel):
    """Every game's rule sheet derives from this: frozen, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2

    turn_timer_seconds: int = option(
        0,
        "Seconds a player has for a move before the default move is made for them; 0 is no timer.",
        ge=0,
        le=3600,
    )
    time_bank_seconds: int = option(
        0, "Extra seconds per player for the whole game, used when the turn timer runs out.", ge=0, le=3600)

    decision_timer_seconds: int = option(
        10,
        "Seconds for an optional decision (show or muck, run it twice, straddle, a lottery guess) "
        "before the quiet choice is made for the player, with or without a turn timer; 0 waits.",
        ge=0,
        le=600,
    )

    # 90 s: long enough to come back after a dropped connection or a phone call's first minute,
    # short enough that the friends waiting do not give up on the evening.
    bot_takeover_seconds: int = option(
        90,
        "Seconds a player may be disconnected before a bot plays for them until they return; 0 is never.",
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
                "This sheet is for {min}–{max} players, not {n}.",
                min=self.min_players(), max=self.max_players(), n=players,
            )


SheetT = TypeVar("SheetT", bound=RuleSheetBase)
StateT = TypeVar("StateT")


class Game(ABC, Generic[StateT, SheetT]):
    """The surface every game offers. Subclasses are stateless; one instance serves all rooms.

    A game is registered by the entry point group ``houserules.games`` (``docs/adding-a-game.md``);
    besides its rules it declares, in its own folder, what the rest of the app needs to know of it:
    its rule letter, its form layout, its bot, the events that begin a deal, and its table in the
    browser (``table_module``, ``table_styles``, ``assets``).
    """

    name: ClassVar[str]
    titles: ClassVar[Mapping[str, str]]
    rule_letter: ClassVar[str]
    """The capital letter of the game's rule ids (``P`` for P1, P2 …), one per registered game: the
    form takes "(P4)" tags out of the visible descriptions by it, and the tests find the ids with it."""
    form_layout: ClassVar[GameLayout | None] = None
    """Where the rule-sheet form shows each option (``app/games/form_layout.py``); ``None``: every
    option of the game's own renders under "More house rules"."""
    bot: ClassVar[str | None] = None
    """The module of the game's computer player (``app/bots/<game>.py``): ``choose(view, legal, rng,
    level, memory)``, ``declines(view, legal, level, memory)`` and optionally ``table_move(view,
    offered)`` (``app.bots``). ``None``: no bot; a bot seat cannot be offered."""
    deal_starts: ClassVar[frozenset[str]] = frozenset()
    """The event types that begin a new deal (a Thousand deal, a Hold'em hand): a bot's memory of
    the deal starts again there. Empty: the game deals once and the memory is the whole game."""
    language_presets: ClassVar[Mapping[str, str]] = {}
    """The preset a page in each language opens on: the seed written in that language (an Estonian
    page opens Palace on Hiina turakas, a Finnish one on China Hand)."""
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
                raise InvalidSheet(None, "Unknown preset '{preset}'; choose one of {choices}.",
                                   preset=str(preset)[:32], choices=choices)
            base = self.presets[preset].model_dump()
        if data is not None and not isinstance(data, Mapping):
            raise InvalidSheet(None, "A rule sheet is a JSON object of options.")
        base.update(data or {})
        try:
            sheet = self.RuleSheet.model_validate(base)
        except ValidationError as error:
            raise InvalidSheet(*sheet_error_message(error, self.option_label)) from None
        self.check_sheet(sheet)
        return sheet

    def option_label(self, option: str) -> str:
        """An option's short English label on the form (``form_layout``); the option itself when
        the layout places it nowhere."""
        placement = placement_of(self.form_layout, option)
        return placement.label if placement is not None else option

    def check_sheet(self, sheet: SheetT) -> None:
        """Refuse impossible combinations of options (override; raise ``InvalidSheet``)."""

    def sheet_schema(self, rule_letters: str = "") -> dict[str, Any]:
        """The rule sheet's JSON schema with the form's layout extras (``form_layout``); the rule-id
        tags of this game and of the games of ``rule_letters`` (the registered ones: ``app.registry``)
        are taken out of the descriptions."""
        letters = "".join(dict.fromkeys(self.rule_letter + rule_letters))
        return with_layout(self.form_layout, self.RuleSheet.model_json_schema(), letters)

    # -- the table in the browser ------------------------------------------------------------

    def table_module(self) -> str:
        """The ES module that draws the table (``static/js/tables/contract.js``), as a path under
        ``/static/``; the pages load it by this name (``static/js/tables/index.js``)."""
        return f"js/tables/{self.name}.js" if self.assets() is None else f"games/{self.name}/table.js"

    def table_styles(self) -> tuple[str, ...]:
        """The table's style sheets, as paths under ``/static/``; every page includes them."""
        if self.assets() is None:
            return (f"css/tables/{self.name}.css",)
        return (f"games/{self.name}/table.css",)

    def assets(self) -> Path | None:
        """A folder of the game's own static files, served at ``/static/games/<name>/`` (a game
        shipped as its own package brings its table there: ``table.js``, ``table.css``); ``None``:
        its files are the app's, ``static/js/tables/<name>.js`` and ``static/css/tables/<name>.css``."""
        return None

    # -- the game ----------------------------------------------------------------------------

    @abstractmethod
    def new(self, sheet: SheetT, players: int, *, seed: str | None = None,
            deck: Sequence[str] | None = None) -> StateT:
        """Deal a new game for seats ``0 .. players-1``.

        ``seed`` (a string; a fresh CSPRNG one when None) drives every shuffle of the game;
        ``deck`` (card codes, top first) fixes the first deal instead, for tests and replays.
        """

    @abstractmethod
    def check(self, state: StateT, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
        """The one legality check: ``None`` when ``seat`` may make ``action`` now, else the refusal
        (an ``IllegalAction``: its stable code, its template and values). ``apply`` raises what
        this returns before it changes anything, and ``legal_actions`` lists the moves it accepts
        (a game lists candidates and keeps those that pass, or lists from the same rules)."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """Every move ``seat`` may make now (empty when it may not act): each passes ``check``. The
        list is the caller's; the move dicts in it are the game's, which may share them between
        listings (Palace does): read them, pass them to ``apply``, copy one to change it."""

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
        raise IllegalAction("unknown_action", "Unknown action type; expected one of: {expected}.",
                             expected=", ".join(names))
    return kind
