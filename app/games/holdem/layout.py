"""Where the rule-sheet form shows Hold'em's options (``Game.form_layout``; the machinery they
share: ``app/games/form_layout.py``)."""

from __future__ import annotations

from app.games.form_layout import GameLayout, decision_timer, place
from app.games.holdem.rules import LEVELS_TURBO


def _levels(rows: list[tuple[int, int, int]]) -> list[dict[str, int]]:
    return [{"small_blind": sb, "big_blind": bb, "ante": ante} for sb, bb, ante in rows]


# Starting points for the blind-level table (H22); the host edits them row by row.
BLIND_STRUCTURES: dict[str, list[dict[str, int]]] = {
    "turbo": [level.model_dump() for level in LEVELS_TURBO],
    "regular": _levels(
        [
            (10, 20, 0),
            (15, 30, 0),
            (20, 40, 0),
            (25, 50, 0),
            (30, 60, 0),
            (40, 80, 0),
            (50, 100, 100),
            (75, 150, 150),
            (100, 200, 200),
            (150, 300, 300),
            (200, 400, 400),
            (300, 600, 600),
            (400, 800, 800),
            (500, 1000, 1000),
            (700, 1400, 1400),
            (1000, 2000, 2000),
        ]
    ),
    "home_game": _levels(
        [
            (5, 10, 0),
            (10, 20, 0),
            (15, 30, 0),
            (20, 40, 0),
            (25, 50, 0),
            (50, 100, 0),
            (75, 150, 0),
            (100, 200, 0),
            (150, 300, 0),
            (200, 400, 0),
        ]
    ),
}


_CASH = {"format": ["cash"]}
_TOURNAMENT = {"format": ["tournament"]}

LAYOUT = GameLayout(
    "seats",
    "most",
    {
        "seats": place("other", 0, "Seats at the table"),
        "decision_timer_seconds": decision_timer(
            "Seconds for a straddle, running the board twice, or showing or mucking, before the quiet "
            "choice is made; 0 waits.",
        ),
        "variant": place("playing", 0, "Betting limit", essential=True),
        "raise_cap": place(
            "playing",
            1,
            "Most bets per round",
            shown_when={"variant": ["fixed_limit"]},
        ),
        "heads_up_uncapped": place(
            "playing",
            1,
            "No cap on raises heads-up",
            shown_when={"variant": ["fixed_limit"]},
        ),
        "straddle": place("playing", 2, "Straddle"),
        "run_it_twice": place("playing", 3, "Run it twice"),
        "showdown": place("playing", 4, "At the showdown"),
        "all_in_tabled": place("playing", 4, "All-in hands turned up at once"),
        "heads_up_deal": place("dealing", 0, "Heads-up, hole cards dealt first to"),
        "show_after_hand": place(
            "playing",
            5,
            "Show cards after the hand",
        ),
        "format": place(
            "chips",
            0,
            "Cash game or tournament",
            essential=True,
        ),
        "small_blind": place(
            "chips", 1, "Small blind", essential=True, shown_when=_CASH
        ),
        "big_blind": place(
            "chips", 2, "Big blind", essential=True, shown_when=_CASH
        ),
        "buy_in_default": place(
            "chips", 3, "Starting stack", essential=True, shown_when=_CASH
        ),
        "buy_in_min": place(
            "chips", 4, "Smallest buy-in", shown_when=_CASH
        ),
        "buy_in_max": place(
            "chips", 5, "Largest buy-in", shown_when=_CASH
        ),
        "rebuy": place(
            "chips",
            6,
            "Rebuys between hands",
            shown_when=_CASH,
        ),
        "ante_type": place("chips", 7, "Antes"),
        "ante": place(
            "chips",
            8,
            "Ante amount",
            shown_when={**_CASH, "ante_type": {"not": ["none"]}},
        ),
        "starting_chips": place(
            "chips",
            9,
            "Starting chips",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "levels": place(
            "chips",
            10,
            "Blind levels",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "level_length": place(
            "timers",
            2,
            "Level length",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "level_by": place(
            "timers", 3, "Blinds rise by", shown_when=_TOURNAMENT
        ),
        "max_hands": place(
            "timers",
            4,
            "Close the table after this many hands (0 = never)",
            shown_when=_CASH,
        ),
    },
    essentials=(
        "format",
        "variant",
        "small_blind",
        "big_blind",
        "buy_in_default",
        "starting_chips",
        "level_length",
        "levels",
    ),
    extras={"levels": {"x-structures": BLIND_STRUCTURES}},
)
