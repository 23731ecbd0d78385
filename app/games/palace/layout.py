"""Where the rule-sheet form shows Palace's options (``Game.form_layout``; the machinery they
share: ``app/games/form_layout.py``)."""

from __future__ import annotations

from app.games.form_layout import GameLayout, place

LAYOUT = GameLayout(
    "most_players",
    "most",
    {
        "most_players": place("other", 0, "Most players"),
        "deal": place("dealing", 0, "The deal", essential=True),
        "deck": place("dealing", 1, "Deck"),
        "decks": place("dealing", 2, "Number of decks"),
        "jokers": place("dealing", 3, "Jokers per deck"),
        "opening": place("dealing", 4, "Who starts"),
        "opening_cards": place(
            "dealing", 5, "Which 3s count for who starts",
        ),
        "twos_low": place(
            "dealing",
            6,
            "A 2 is the lowest card for who starts",
            shown_when={"opening": ["lowest_card", "left_plays_lowest"]},
        ),
        "when_stuck": place(
            "playing", 0, "When you cannot play", essential=True
        ),
        "voluntary_pick_up": place(
            "playing",
            1,
            "Pick up the pile at will",
        ),
        "after_pick_up": place(
            "playing",
            2,
            "Who starts after a pick-up",
        ),
        "turn_up_face_down": place(
            "playing",
            3,
            "Turn up the face-down card at once",
        ),
        "four_from_hand": place(
            "playing",
            4,
            "Lay four of a kind aside from the hand",
        ),
        "cut_in": place(
            "playing",
            5,
            "Cut in with the fourth card",
        ),
        "add_drawn": place(
            "playing",
            6,
            "Add a drawn card of the same rank",
        ),
        "low_card": place(
            "special_cards",
            0,
            "Low card (the next plays lower)",
            essential=True,
        ),
        "eight_transparent": place(
            "special_cards",
            1,
            "An eight is see-through",
            essential=True,
        ),
        "ten_burn": place(
            "special_cards",
            2,
            "A ten burns the pile",
            essential=True,
        ),
        "ten_fits": place("special_cards", 3, "Where a ten fits"),
        "joker": place(
            "special_cards",
            4,
            "What a joker does",
            shown_when={"jokers": {"not": [0]}},
        ),
        "no_out_on_special": place(
            "special_cards",
            5,
            "No going out on a 2, 10 or ace",
        ),
        "finish": place(
            "scoring", 0, "When the game ends", essential=True
        ),
        "stalemate_moves": place(
            "scoring",
            1,
            "Moves without progress before the game stops",
        ),
    },
    essentials=("deal", "when_stuck", "low_card", "eight_transparent", "ten_burn", "finish"),
    hidden=("decision_timer_seconds",),
)
