"""Every registered game is a full citizen: it runs the generic property suite, the rule ids its
code and tests cite are defined in its rules page, and that page's option table lists every option
of its rule sheet (docs/adding-a-game.md)."""

from __future__ import annotations

import dataclasses
import importlib
import random
import re
from pathlib import Path

import pytest

from app.games import GAMES
from tests.games.properties import PropertyCase, play_random_game

ROOT = Path(__file__).resolve().parents[2]
# The letter of each game's rule ids (P1, H16, T15 …); a new game adds its own.
RULE_ID_PREFIX = {"palace": "P", "holdem": "H", "thousand": "T"}


def test_every_game_has_a_rule_id_prefix() -> None:
    assert set(RULE_ID_PREFIX) == set(GAMES)
    assert len(set(RULE_ID_PREFIX.values())) == len(RULE_ID_PREFIX)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_runs_the_generic_property_suite(name: str) -> None:
    """A game needs ``tests/games/<name>/test_properties.py`` with ``property_case()``: the
    ``PropertyCase`` (sheet, players, and the rules' own ``visible_cards`` and ``all_cards``)
    with which the generic checks of ``tests/games/properties.py`` play it here."""
    try:
        module = importlib.import_module(f"tests.games.{name}.test_properties")
    except ModuleNotFoundError:
        pytest.fail(f"{name}: no tests/games/{name}/test_properties.py")
    make = getattr(module, "property_case", None)
    assert callable(make), f"{name}: test_properties.py defines no property_case()"
    case = make()
    assert isinstance(case, PropertyCase) and case.game is GAMES[name]
    result = play_random_game(case, f"registry-{name}", random.Random(1))
    assert GAMES[name].outcome(result.state) is not None and result.moves > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_cited_rule_ids_are_defined_in_the_rules_page(name: str) -> None:
    prefix = RULE_ID_PREFIX[name]
    page = ROOT / "docs" / "rules" / f"{name}.md"
    assert page.exists(), f"{name}: no docs/rules/{name}.md"
    defined = set(re.findall(rf"^\| ({prefix}\d+) \|", page.read_text(), re.M))
    assert defined, f"{name}: docs/rules/{name}.md has no table of rule ids"
    cited: set[str] = set()
    for folder in (ROOT / "app" / "games" / name, ROOT / "tests" / "games" / name):
        for source in folder.rglob("*.py"):
            text = source.read_text()
            cited |= set(re.findall(rf"\b({prefix}\d+)\b", text))
            cited |= {prefix + n for n in re.findall(rf"def test_{prefix.lower()}(\d+)_", text)}
    assert cited <= defined, f"{name}: ids cited but not defined: {sorted(cited - defined)}"
    tested = {prefix + n for folder in [ROOT / "tests" / "games" / name]
              for source in folder.rglob("test_*.py")
              for n in re.findall(rf"def test_{prefix.lower()}(\d+)_", source.read_text())}
    assert tested == defined, f"{name}: ids without a scenario test: {sorted(defined - tested)}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_page_lists_every_sheet_option(name: str) -> None:
    """Each option of the sheet's schema (those every sheet has from ``RuleSheetBase`` too) has a
    row in the option table of ``docs/rules/<name>.md``, and each row names real options: a row's
    first cell names one or more options, each in backticks (`` `ante`, `ante_type` ``)."""
    page = (ROOT / "docs" / "rules" / f"{name}.md").read_text()
    documented: set[str] = set()
    for first_cell in re.findall(r"^\| (`[a-z0-9_]+`(?:, `[a-z0-9_]+`)*) \|", page, re.M):
        documented |= set(re.findall(r"`([a-z0-9_]+)`", first_cell))
    options = set(GAMES[name].RuleSheet.model_json_schema()["properties"])
    assert options - documented == set(), f"{name}: options missing from docs/rules/{name}.md"
    assert documented - options == set(), f"{name}: docs/rules/{name}.md lists options the sheet lacks"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_states_handed_out_are_frozen(name: str) -> None:
    """One state idiom (app/games/base.py): ``new``, ``apply`` and ``load`` hand out frozen states;
    a move builds its own copy."""
    game = GAMES[name]
    case = importlib.import_module(f"tests.games.{name}.test_properties").property_case()
    state = game.new(case.sheet, case.players, seed=f"frozen-{name}")
    seat = game.to_act(state)[0]
    after, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    loaded = game.load(game.dump(after))
    for finished in (state, after, loaded):
        field = dataclasses.fields(finished)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(finished, field, None)
