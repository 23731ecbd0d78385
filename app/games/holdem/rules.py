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

    small_blind: int = option(1, "Small blind.", "Väike blind.", "Pieni blindi.", ge=1)
    big_blind: int = option(2, "Big blind.", "Suur blind.", "Iso blindi.", ge=1)
    ante: int = option(0, "Ante of this level.", "Selle taseme ante.", "Tämän tason ante.", ge=0)


class RuleSheet(RuleSheetBase):
    """Every house rule of a hold'em table."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 10

    variant: Literal["no_limit", "pot_limit", "fixed_limit"] = option(
        "no_limit",
        "Betting limit (H16): no limit, pot limit or fixed limit.",
        "Panustamise limiit (H16): no-limit, pot-limit või fixed-limit.",
        "Panostusraja (H16): no limit, pot limit tai fixed limit.",
    )
    seats: int = option(
        9, "Seats at the table (H1).", "Kohti laua ääres (H1).", "Paikkoja pöydässä (H1).", ge=2, le=10
    )
    small_blind: int = option(
        1,
        "Small blind (H5); in fixed limit the small bet is the big blind.",
        "Väike blind (H5).",
        "Pieni blindi (H5).",
        ge=1,
    )
    big_blind: int = option(
        2,
        "Big blind (H5), also the minimum bet.",
        "Suur blind (H5), ühtlasi minimaalne panus.",
        "Iso blindi (H5), myös pienin panos.",
        ge=1,
    )
    ante: int = option(
        0,
        "Ante amount in a cash game (H6).",
        "Ante suurus rahamängus (H6).",
        "Anten koko käteispelissä (H6).",
        ge=0,
    )
    ante_type: Literal["none", "every_player", "big_blind"] = option(
        "none",
        "Antes (H6): none, every player, or a big-blind ante paid by the big blind for the table.",
        "Ante (H6): puudub, iga mängija või big blind ante (suur blind maksab kogu laua eest).",
        "Ante (H6): ei antea, jokainen pelaaja, tai ison blindin ante koko pöydän puolesta.",
    )
    straddle: Literal["off", "utg"] = option(
        "off",
        "Straddle (H7): off, or UTG may post a voluntary 2 × BB blind before the deal and act last preflop.",
        "Straddle (H7): väljas või UTG võib enne jagamist panna vabatahtliku 2 × BB; ta tegutseb preflopis "
        "viimasena.",
        "Straddle (H7): pois, tai UTG voi laittaa vapaaehtoisen 2 × BB ennen jakoa ja toimii viimeisenä.",
    )
    raise_cap: Literal[0, 4, 5] = option(
        4,
        "Fixed limit: most bets per round (4: a bet and 3 raises; 5: a bet and 4 raises; 0: no cap).",
        "Fixed limit: panuseid ringis kõige rohkem (4: panus ja 3 tõstet; 5: panus ja 4 tõstet; "
        "0: piiranguta).",
        "Fixed limit: panoksia kierroksella enintään (4: panos ja 3 korotusta; 5: panos ja 4; 0: ei rajaa).",
    )
    heads_up_uncapped: bool = option(
        True,
        "Fixed limit: no cap on raises while only two players are in the betting (unless the round was "
        "capped before it became heads-up) (H16).",
        "Fixed limit: tõstete arv pole piiratud, kui panustamises on ainult kaks mängijat (kui ring "
        "polnud juba enne piiratud) (H16).",
        "Fixed limit: korotuksia ei rajoiteta, kun panostamassa on vain kaksi pelaajaa (ellei kierrosta "
        "rajattu jo ennen) (H16).",
    )
    format: Literal["cash", "tournament"] = option(
        "cash",
        "Cash game or tournament (H22).",
        "Rahamäng või turniir (H22).",
        "Käteispeli tai turnaus (H22).",
    )
    buy_in_min: int = option(
        40, "Cash: smallest buy-in.", "Rahamäng: väikseim sissemaks.", "Käteispeli: pienin sisäänosto.", ge=1
    )
    buy_in_max: int = option(
        200, "Cash: largest buy-in.", "Rahamäng: suurim sissemaks.", "Käteispeli: suurin sisäänosto.", ge=1
    )
    buy_in_default: int = option(
        200,
        "Cash: the stack of each player seated at the start.",
        "Rahamäng: algusest istuvate mängijate stäkk.",
        "Käteispeli: alussa istuvien pelaajien pino.",
        ge=1,
    )
    rebuy: bool = option(
        True,
        "Cash: rebuys and top-ups between hands, up to the largest buy-in.",
        "Rahamäng: juurdeost jaotuste vahel kuni suurima sissemaksuni.",
        "Käteispeli: lisäostot jakojen välissä suurimpaan sisäänostoon asti.",
    )
    max_hands: int = option(
        0,
        "Cash: the table closes itself after this many hands (0: only the host closes it).",
        "Rahamäng: laud suletakse pärast nii mitut jaotust (0: ainult võõrustaja sulgeb).",
        "Käteispeli: pöytä suljetaan näin monen jaon jälkeen (0: vain isäntä sulkee).",
        ge=0,
    )
    starting_chips: int = option(
        1500, "Tournament: starting chips.", "Turniir: algžetoonid.", "Turnaus: aloituspelimerkit.", ge=1
    )
    levels: tuple[Level, ...] = option(
        (),
        "Tournament: blind levels in order; the last one stays.",
        "Turniir: blinditasemed järjekorras; viimane jääb kehtima.",
        "Turnaus: blinditasot järjestyksessä; viimeinen jää voimaan.",
    )
    level_by: Literal["hands", "minutes"] = option(
        "hands",
        "Tournament: blinds rise after a number of hands or of minutes (the room's clock).",
        "Turniir: blindid tõusevad jaotuste arvu või minutite järgi.",
        "Turnaus: blindit nousevat jakojen tai minuuttien mukaan.",
    )
    level_length: int = option(
        10,
        "Tournament: hands or minutes per level.",
        "Turniir: jaotusi või minuteid taseme kohta.",
        "Turnaus: jakoja tai minuutteja tasoa kohden.",
        ge=1,
    )
    run_it_twice: Literal["off", "ask"] = option(
        "off",
        "Run it twice: off, or when all-in with cards to come, the players may agree to deal the rest twice.",
        "Kaks korda jooksutamine: väljas või all-in korral võivad mängijad leppida kaks korda jagamises.",
        "Kahdesti jakaminen: pois, tai all-in-tilanteessa pelaajat voivat sopia jakavansa loput kahdesti.",
    )
    show_after_hand: bool = option(
        False,
        "Players may show their cards after the hand.",
        "Mängijad võivad pärast jaotust oma kaarte näidata.",
        "Pelaajat voivat näyttää korttinsa jaon jälkeen.",
    )
    showdown: Literal["auto", "ask"] = option(
        "auto",
        "Showdown (H19): hands that can win are shown and losers mucked in order, or each player chooses.",
        "Showdown (H19): võita võivad käed avatakse ja kaotajad visatakse järjekorras, või igaüks valib ise.",
        "Showdown (H19): voittavat kädet näytetään ja häviäjät heitetään järjestyksessä, tai kukin valitsee.",
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
    ),
}
