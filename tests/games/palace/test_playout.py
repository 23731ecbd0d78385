"""The playout path (``palace.playout``, a changeable record) agrees with the game contract move by
move.

Random games of every preset (2 to its most players) and of random sheets (every option of the
sheet drawn, 2-5 players, the stalemate count short or long) are played along both paths at once:
at every step the seats to act must be the same list, every one of those seats' legal moves the
same list of the same dicts in the same order, and after the move the record's table (its JSON
form, ``Record.to_json``) must equal the contract's, field for field; at the end the outcomes must
be the same. Half of the games start the playout part way through (``playout.start`` of the
contract's table then). The move played on the playout path is the playout's own listed dict (the
one a bot plays), equal to the contract's. ``PALACE_PLAYOUT_GAMES`` sets the number of random
sheets; the thorough run (``slow``) plays more.

A playout with one rule wrong on purpose (P7: a card of the active rank does not fit) is caught.
"""

from __future__ import annotations

import os
import random

import pytest

from app.games.palace import PRESETS, RuleSheet, game, playout, record
from app.games.palace.table import Table
from tests.games.palace.helpers import random_sheets
from tests.games.playouts import Disagree, mostly, same

GAMES = int(os.environ.get("PALACE_PLAYOUT_GAMES", "60"))
CHUNKS = 4




# Mostly moves that keep the game going (drawing and picking up the pile prolong it); now and then
# the others, so every kind of move is played.
_CALM = mostly(lambda a: a["type"] not in ("pick_up", "draw", "keep", "pass"))


def play_both(sheet: RuleSheet, players: int, seed: int, moves: int = 4000) -> int:
    """One random game along both paths, compared after every move; the moves played."""
    rng = random.Random(seed)
    where = f"game {seed} ({players} players)"
    state: Table = game.new(sheet, players, seed=f"palace-playout-{seed}")
    join_at = 0 if rng.random() < 0.5 else rng.randint(1, 80)
    fast = None
    played = 0
    for played in range(moves):
        if fast is None and played >= join_at:
            before = game.dump(state)
            fast = playout.start(state)
            same("start leaves the table alone", before, game.dump(state), where)
            same("table at the start", state.to_json(), fast.to_json(), where)
        if game.outcome(state) is not None:
            break
        seats = game.to_act(state)
        if fast is not None:
            same("seats to act", seats, playout.to_act(fast), where)
            same("over", False, playout.over(fast, state), where)
            for seat in range(players):
                if seat in seats or rng.random() < 0.1:  # now and then a seat with nothing to do
                    same(f"legal moves of seat {seat}", game.legal_actions(state, seat),
                          playout.legal(fast, seat), where)
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        action = _CALM(legal, rng)
        state, _ = game.apply(state, seat, action)
        if fast is not None:
            fast = playout.play(fast, seat, playout.legal(fast, seat)[legal.index(action)])
            same(f"table after {action}", state.to_json(), fast.to_json(), where)
    if fast is not None:
        same("over at the end", game.outcome(state) is not None, playout.over(fast, state), where)
        same("outcome", game.outcome(state), playout.outcome(fast), where)
    return played


PRESET_CASES = [
    (name, players) for name, sheet in PRESETS.items() for players in range(2, sheet.most_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PRESET_CASES)
def test_presets_agree_move_by_move(preset: str, players: int) -> None:
    for seed in range(2):
        assert play_both(PRESETS[preset], players, 1000 * players + seed) > 0


def _random_games(chunk: int, count: int) -> None:
    for seed in range(chunk, count, CHUNKS):
        sheet, players = random_sheets(1, seed)[0]
        play_both(sheet, players, seed)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_sheets_agree_move_by_move(chunk: int) -> None:
    _random_games(chunk, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_sheets_agree_move_by_move_thoroughly(chunk: int) -> None:
    _random_games(chunk, 20 * GAMES)


def test_the_comparison_catches_a_wrong_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    real = record.rules_of

    def equal_rank_does_not_fit(sheet: RuleSheet) -> record.Rules:
        rules = record.Rules(sheet)
        for rank in range(2, record.NONE):
            if rules.fit[rank][rank] and rank != rules.low:
                rules.fit[rank][rank] = False  # P7 wrong on purpose: "equal or higher" made "higher"
        return rules

    monkeypatch.setattr(record, "rules_of", equal_rank_does_not_fit)
    with pytest.raises(Disagree):
        for seed in range(20):
            play_both(PRESETS["hiina-turakas"], 4, seed)
    monkeypatch.setattr(record, "rules_of", real)
    play_both(PRESETS["hiina-turakas"], 4, 0)  # the same games agree with the rule right


def test_a_playout_changes_its_record_and_not_the_table() -> None:
    table = game.new(PRESETS["palace"], 3, seed="untouched")
    before = game.dump(table)
    fast = playout.start(table)
    while not playout.over(fast, table):
        seat = playout.to_act(fast)[0]
        assert playout.play(fast, seat, playout.legal(fast, seat)[0]) is fast
    assert game.dump(table) == before and not playout.over(table, table)
    outcome = playout.outcome(fast)
    assert outcome is not None and len(outcome.scores) == 3
