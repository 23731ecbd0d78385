"""Every registered game is a full citizen: it runs the generic property suite, the rule ids its
code and tests cite are defined in its rules page, and that page's option table lists every option
of its rule sheet (docs/adding-a-game.md). The games come from the registry, each game's cases from
its own test folder (tests/games/game_cases.py)."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from app.registry import GAMES
from tests.games.game_cases import cases_of, game_tests_folder, names, rules_page, source_folder
from tests.games.properties import PropertyCase, play_random_game

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_its_own_rule_letter() -> None:
    """The letter of each game's rule ids (P1, H16, T15 …), ``Game.rule_letter``: one capital
    letter, no two games alike (the registry refuses a game that breaks this)."""
    letters = [GAMES[name].rule_letter for name in names()]
    assert all(len(letter) == 1 and letter.isupper() for letter in letters)
    assert len(set(letters)) == len(letters)


@pytest.mark.parametrize("name", names())
def test_every_registered_game_runs_the_generic_property_suite(name: str) -> None:
    """A game's test folder has ``cases.py`` whose ``CASES.property_case()`` is the
    ``PropertyCase`` (sheet, players, and the rules' own ``visible_cards`` and ``all_cards``)
    with which the generic checks of ``tests/games/properties.py`` play it here."""
    try:
        cases = cases_of(name)
    except ModuleNotFoundError:
        pytest.fail(f"{name}: no cases.py in {game_tests_folder(GAMES[name]).relative_to(ROOT)}")
    case = cases.property_case()
    assert isinstance(case, PropertyCase) and case.game is GAMES[name]
    result = play_random_game(case, f"registry-{name}", random.Random(1))
    assert GAMES[name].outcome(result.state) is not None and result.moves > 0


@pytest.mark.parametrize("name", names())
def test_cited_rule_ids_are_defined_in_the_rules_page(name: str) -> None:
    game = GAMES[name]
    prefix = game.rule_letter
    page = rules_page(game)
    assert page.exists(), f"{name}: no docs/rules/{name}.md"
    defined = set(re.findall(rf"^\| ({prefix}\d+) \|", page.read_text(), re.M))
    assert defined, f"{name}: {page.relative_to(ROOT)} has no table of rule ids"
    cited: set[str] = set()
    for folder in dict.fromkeys((source_folder(game), game_tests_folder(game))):
        for source in folder.rglob("*.py"):
            text = source.read_text()
            cited |= set(re.findall(rf"\b({prefix}\d+)\b", text))
            cited |= {prefix + n for n in re.findall(rf"def test_{prefix.lower()}(\d+)_", text)}
    assert cited <= defined, f"{name}: ids cited but not defined: {sorted(cited - defined)}"
    tested = {prefix + n for folder in [game_tests_folder(game)]
              for source in folder.rglob("test_*.py")
              for n in re.findall(rf"def test_{prefix.lower()}(\d+)_", source.read_text())}
    assert tested == defined, f"{name}: ids without a scenario test: {sorted(defined - tested)}"


@pytest.mark.parametrize("name", names())
def test_the_rules_page_lists_every_sheet_option(name: str) -> None:
    """Each option of the sheet's schema (those every sheet has from ``RuleSheetBase`` too) has a
    row in the option table of ``docs/rules/<name>.md``, and each row names real options: a row's
    first cell names one or more options, each in backticks (`` `ante`, `ante_type` ``)."""
    page = rules_page(GAMES[name]).read_text()
    documented: set[str] = set()
    for first_cell in re.findall(r"^\| (`[a-z0-9_]+`(?:, `[a-z0-9_]+`)*) \|", page, re.M):
        documented |= set(re.findall(r"`([a-z0-9_]+)`", first_cell))
    options = set(GAMES[name].RuleSheet.model_json_schema()["properties"])
    assert options - documented == set(), f"{name}: options missing from its rules page"
    assert documented - options == set(), f"{name}: its rules page lists options the sheet lacks"


@pytest.mark.parametrize("name", names())
def test_states_handed_out_are_frozen(name: str) -> None:
    """One state idiom (app/games/base.py): ``new``, ``apply`` and ``load`` hand out frozen states;
    a move builds its own copy."""
    game = GAMES[name]
    case = cases_of(name).property_case()
    state = game.new(case.sheet, case.players, seed=f"frozen-{name}")
    seat = game.to_act(state)[0]
    after, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    loaded = game.load(game.dump(after))
    for finished in (state, after, loaded):
        field = dataclasses.fields(finished)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(finished, field, None)
