"""The Texas Hold'em rule sheet and its presets (rules H1–H24 of docs/rules/holdem.md).

Every house rule the seed leaves open is an option here, read by the engine at a named
decision point. Amounts are whole chips (play money only, H24).
"""

from __future__ import annotations

from functools import cached_property
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from app.games.base import InvalidSheet, RuleSheetBase, option


class Level(BaseModel):
    """One tournament blind level (H22): blinds and the ante of that level."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    small_blind: int = option(1, "Small blind.", ge=1)
    big_blind: int = option(2, "Big blind.", ge=1)
    ante: int = option(0, "Ante of this level.", ge=0)


class RuleSheet(RuleSheetBase):
    """Every house rule of a hold'em table."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 10

    variant: Literal["no_limit", "pot_limit", "fixed_limit"] = option(
        "no_limit", "Betting limit (H16): no limit, pot limit or fixed limit.")
    seats: int = option(9, "Seats at the table (H1).", ge=2, le=10)
    small_blind: int = option(1, "Small blind (H5); in fixed limit the small bet is the big blind.", ge=1)
    big_blind: int = option(2, "Big blind (H5), also the minimum bet.", ge=1)
    ante: int = option(0, "Ante amount in a cash game (H6).", ge=0)
    ante_type: Literal["none", "every_player", "big_blind"] = option(
        "none", "Antes (H6): none, every player, or a big-blind ante paid by the big blind for the table.")
    straddle: Literal["off", "utg"] = option(
        "off",
        "Straddle (H7): off, or UTG may post a voluntary 2 × BB blind before the deal and act last preflop.",
    )
    raise_cap: Literal[0, 4, 5] = option(
        4, "Fixed limit: most bets per round (4: a bet and 3 raises; 5: a bet and 4 raises; 0: no cap).")
    heads_up_uncapped: bool = option(
        True,
        "Fixed limit: no cap on raises while only two players are in the betting (unless the round was "
        "capped before it became heads-up) (H16).",
    )
    format: Literal["cash", "tournament"] = option("cash", "Cash game or tournament (H22).")
    buy_in_min: int = option(40, "Cash: smallest buy-in.", ge=1)
    buy_in_max: int = option(200, "Cash: largest buy-in.", ge=1)
    buy_in_default: int = option(200, "Cash: the stack of each player seated at the start.", ge=1)
    rebuy: bool = option(True, "Cash: rebuys and top-ups between hands, up to the largest buy-in.")
    max_hands: int = option(
        0, "Cash: the table closes itself after this many hands (0: only the host closes it).", ge=0)
    starting_chips: int = option(1500, "Tournament: starting chips.", ge=1)
    levels: tuple[Level, ...] = option((), "Tournament: blind levels in order; the last one stays.")
    level_by: Literal["hands", "minutes"] = option(
        "hands", "Tournament: blinds rise after a number of hands or of minutes (the room's clock).")
    level_length: int = option(10, "Tournament: hands or minutes per level.", ge=1)
    run_it_twice: Literal["off", "ask"] = option(
        "off",
        "Run it twice: off, or when all-in with cards to come, the players may agree to deal the rest twice.",
    )
    show_after_hand: bool = option(False, "Players may show their cards after the hand.")
    showdown: Literal["auto", "ask"] = option(
        "auto",
        "Showdown (H19): hands that can win are shown and losers mucked in order, or each player chooses.",
    )

    all_in_tabled: Literal["in_tournaments", "always"] = option(
        "in_tournaments",
        "All-in with no betting left (H19): every hand is turned up at once in tournaments, while at a cash "
        "table the showdown goes in order and a loser may muck; or every hand is turned up in every format.",
    )
    heads_up_deal: Literal["small_blind_first", "big_blind_first"] = option(
        "big_blind_first",
        "Heads-up hole cards (H10): dealt from the small blind (the button) as the seed says, or from the "
        "big blind as most card rooms deal.",
    )

    def max_players(self) -> int:
        return self.seats

    def level(self, index: int) -> Level:
        """Blinds and ante in force at level ``index`` (cash: the sheet's blinds)."""
        if self.format == "tournament" and self.levels:
            return self.levels[min(index, len(self.levels) - 1)]
        return self._cash_level

    @cached_property
    def _cash_level(self) -> Level:
        return Level(small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante)

    def check(self) -> None:
        """Refuse impossible combinations (raises ``InvalidSheet``)."""
        for lvl in [self.level(0), *self.levels]:
            if lvl.small_blind > lvl.big_blind:
                raise InvalidSheet("small_blind", "The small blind may not exceed the big blind.")
        if self.format == "cash":
            if not self.buy_in_min <= self.buy_in_default <= self.buy_in_max:
                raise InvalidSheet("buy_in_default", "The starting buy-in must lie within the buy-in range.")
        elif not self.levels:
            raise InvalidSheet("levels", "A tournament needs at least one blind level.")


LEVELS_TURBO = tuple(
    Level(small_blind=sb, big_blind=bb, ante=ante)
    for sb, bb, ante in [
        (10, 20, 0),
        (15, 30, 0),
        (25, 50, 0),
        (50, 100, 100),
        (75, 150, 150),
        (100, 200, 200),
        (150, 300, 300),
        (200, 400, 400),
        (300, 600, 600),
        (400, 800, 800),
        (600, 1200, 1200),
        (1000, 2000, 2000),
        (1500, 3000, 3000),
        (2500, 5000, 5000),
    ]
)

PRESETS: dict[str, RuleSheet] = {
    "cash-nl-1-2": RuleSheet(
        variant="no_limit",
        seats=9,
        small_blind=1,
        big_blind=2,
        format="cash",
        buy_in_min=40,
        buy_in_max=200,
        buy_in_default=200,
        straddle="utg",
        show_after_hand=True,
        heads_up_deal="small_blind_first",
    ),
    "tournament-nl-turbo": RuleSheet(
        variant="no_limit",
        seats=9,
        format="tournament",
        starting_chips=1500,
        levels=LEVELS_TURBO,
        level_by="minutes",
        level_length=5,
        ante_type="big_blind",
        small_blind=10,
        big_blind=20,
        heads_up_deal="small_blind_first",
    ),
    "fixed-limit-2-4": RuleSheet(
        variant="fixed_limit",
        seats=9,
        small_blind=1,
        big_blind=2,
        format="cash",
        buy_in_min=40,
        buy_in_max=200,
        buy_in_default=100,
        raise_cap=4,
        heads_up_deal="small_blind_first",
    ),
    "pot-limit-1-2": RuleSheet(
        variant="pot_limit",
        seats=9,
        small_blind=1,
        big_blind=2,
        format="cash",
        buy_in_min=40,
        buy_in_max=200,
        buy_in_default=200,
        heads_up_deal="small_blind_first",
    ),
}
