"""The Estonian seed's last sentences on all-in showdowns and the heads-up deal (H19, H10).

holdem-et.txt: "Mängija, kes näeb, et on kaotanud, võib oma kaardid näitamata maha visata
(“muck”). Kui kõik on all-in ja panustamist enam ei toimu, avatakse turniiridel kõigi osalejate
kaardid kohe." (A player who sees he has lost may throw his cards away unshown. When everyone is
all-in and no betting is left, in tournaments every player's cards are opened at once.) And:
"Pärast blindide panustamist jagab diiler alates SB-st päripäeva igale mängijale ükshaaval kaks
taskukaarti." (After the blinds the dealer deals, from the small blind clockwise, two hole cards
to each player one at a time.)
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.holdem import HOLDEM
from app.games.holdem.phh import export
from app.games.holdem.state import State
from tests.games.holdem.helpers import act, cash_out, deck_for, hand

BOARD = ["2c", "7d", "9s", "Jc", "3h"]
# Seat 1 (small blind) is dealt first: kings; seat 2 queens; seat 0 (button) 4s5s, the worst.
HOLES = ["KhKd", "QhQd", "4s5s"]


def _table(preset: str, **options: Any) -> State:
    # No straddle (the cash preset offers one), so the cards are dealt at once.
    cash = {"max_hands": 1, "straddle": "off", "show_after_hand": False}
    if preset == "tournament-nl-turbo":
        cash = {}
    sheet = HOLDEM.sheet({**cash, **options}, preset=preset)
    return HOLDEM.new(sheet, 3, seed="seed-readings", deck=deck_for(HOLES, BOARD), button=0)


def _everyone_all_in(s: State) -> tuple[State, list[Any]]:
    s = act(s, (0, {"type": "all_in"}), (1, {"type": "all_in"}))
    return HOLDEM.apply(s, 2, {"type": "all_in"})


def _nothing_of(cards: list[str], s: State, events: list[Any], seats: list[int | None]) -> None:
    """None of ``cards`` reaches any of ``seats``: views, the events they see, their PHH."""
    for seat in seats:
        seen = str(HOLDEM.view(s, seat)) + str([e.to_json() for e in events if e.visible_to(seat)])
        seen += export(s, s.history[-1]["hand"], seat)
        for card in cards:
            assert card not in seen, f"{card} reached seat {seat}"


def test_h19_tournament_all_in_every_hand_opened_at_once() -> None:
    """"avatakse turniiridel kõigi osalejate kaardid kohe": in a tournament the hands are turned
    up the moment the betting is over, before the rest of the board, and nobody mucks."""
    _, events = _everyone_all_in(_table("tournament-nl-turbo"))
    kinds = [e.type for e in events]
    assert kinds.index("show") < kinds.index("board")
    assert {e.data["seat"] for e in events if e.type == "show"} == {0, 1, 2}
    assert "muck" not in kinds


@pytest.mark.parametrize("showdown", ["auto", "ask"])
def test_h19_cash_all_in_showdown_in_order_and_the_loser_may_muck(showdown: str) -> None:
    """At a cash table the seed's tournament sentence does not apply: "Mängija, kes näeb, et on
    kaotanud, võib oma kaardid näitamata maha visata": nothing is shown before the board, then the
    showdown goes in H19 order (the last aggressor of the last round first) and a loser mucks
    unshown; his cards reach no other seat, no spectator, no event and no hand history."""
    s, events = _everyone_all_in(_table("cash-nl-1-2", showdown=showdown))
    kinds = [e.type for e in events]
    assert "show" not in kinds[: kinds.index("board")]
    if showdown == "ask":
        # Seat 0 moved all-in first (the last aggressor of the round; the others only called):
        # it is asked first and, beaten by nothing yet, may still muck.
        h = hand(s)
        assert h.phase == "showdown" and HOLDEM.to_act(s) == [0]
        assert {"type": "muck"} in HOLDEM.legal_actions(s, 0)
        for seat, move in ((0, "muck"), (1, "show"), (2, "muck")):
            assert HOLDEM.to_act(s) == [seat]
            s, more = HOLDEM.apply(s, seat, {"type": move})
            events += more
        shown, mucked = {"1": ["Kh", "Kd"]}, [0, 2]
    else:
        # auto: the first in order shows (nothing beats it yet), the kings show, the queens,
        # beaten by a shown hand, are mucked.
        shown, mucked = {"0": ["4s", "5s"], "1": ["Kh", "Kd"]}, [2]
    assert s.over
    assert s.last is not None and s.last["shown"] == shown and sorted(s.last["mucked"]) == mucked
    assert cash_out(s) == {0: 0, 1: 600, 2: 0}
    for seat in mucked:
        cards = HOLES[[1, 2, 0].index(seat)]
        others: list[int | None] = [None, *[x for x in range(3) if x != seat]]
        _nothing_of([cards[:2], cards[2:]], s, events, others)


def test_h19_all_in_tabled_always_turns_every_cash_hand_up() -> None:
    """The option's other value: TDA Rule 16 in every format (a cash table tables every hand)."""
    s, events = _everyone_all_in(_table("cash-nl-1-2", all_in_tabled="always"))
    kinds = [e.type for e in events]
    assert kinds.index("show") < kinds.index("board") and "muck" not in kinds
    assert s.last is not None and set(s.last["shown"]) == {"0", "1", "2"}


def _heads_up(preset: str, **options: Any) -> State:
    sheet = HOLDEM.sheet({"max_hands": 1, **options}, preset=preset)
    return HOLDEM.new(sheet, 2, seed="heads-up", deck=["Ah", "Kc", "Ad", "Kd"], button=0)


def test_h10_heads_up_the_dealer_deals_from_the_small_blind() -> None:
    """"jagab diiler alates SB-st päripäeva": heads-up the button is the small blind (H8) and gets
    the first and third cards; every preset follows the seed."""
    for preset in HOLDEM.presets:
        if HOLDEM.presets[preset].format == "tournament":
            continue
        s = _heads_up(preset)
        h = hand(s)
        assert h.button == h.sb == 0 and h.bb == 1
        assert h.holes[0] == ["Ah", "Ad"] and h.holes[1] == ["Kc", "Kd"], preset
    turbo = HOLDEM.presets["tournament-nl-turbo"]
    s = HOLDEM.new(turbo, 2, seed="hu", deck=["Ah", "Kc", "Ad", "Kd"], button=0)
    assert hand(s).holes[0] == ["Ah", "Ad"]


def test_h10_heads_up_big_blind_first_as_the_card_rooms_deal() -> None:
    """`heads_up_deal = big_blind_first`: the rulebooks' (and pokerkit's) order, the button dealing
    to the other player first; with three or more the option changes nothing."""
    s = _heads_up("cash-nl-1-2", heads_up_deal="big_blind_first")
    assert hand(s).holes[1] == ["Ah", "Ad"] and hand(s).holes[0] == ["Kc", "Kd"]
    three = _table("cash-nl-1-2", heads_up_deal="big_blind_first")
    assert hand(three).holes[1] == ["Kh", "Kd"] and hand(three).holes[0] == ["4s", "5s"]
