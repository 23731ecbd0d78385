"""Where the rule-sheet form shows Thousand's options (``Game.form_layout``; the machinery they
share: ``app/games/form_layout.py``)."""

from __future__ import annotations

from app.games.form_layout import GameLayout, decision_timer, place

_TWO = {"players": [2]}

LAYOUT = GameLayout(
    "players",
    "exact",
    {
        "players": place("other", 0, "Players"),
        "decision_timer_seconds": decision_timer(
            "Seconds for a guess in the nine lottery before red is guessed for the player; 0 waits.",
        ),
        "two_player_variant": place(
            "dealing",
            0,
            "Two players: the game",
            essential=True,
            shown_when=_TWO,
        ),
        "two_player_contract": place(
            "scoring",
            9,
            "Two players: the starter must make",
            shown_when={**_TWO, "two_player_variant": ["stock"]},
        ),
        "two_player_minus": place(
            "scoring",
            10,
            "Two players: a failed contract counts minus",
            shown_when={**_TWO, "two_player_variant": ["stock"]},
        ),
        "talon": place("dealing", 1, "The talon", essential=True),
        "four_nines_redeal": place(
            "dealing",
            2,
            "Four nines: deal again",
        ),
        "low_hand_redeal": place(
            "dealing",
            3,
            "“17 or less”: deal again",
        ),
        "low_hand_limit": place(
            "dealing",
            4,
            "Weak hand: at most",
            shown_when={"low_hand_redeal": [True]},
        ),
        "redeals_before_penalty": place(
            "dealing",
            5,
            "Deals again in a row before a penalty",
        ),
        "redeal_penalty": place(
            "dealing",
            6,
            "Penalty for too many deals again",
        ),
        "opening_bid": place("playing", 0, "Opening bid"),
        "bid_step": place("playing", 1, "Bids rise by"),
        "bid_limit_without_marriage": place(
            "playing",
            2,
            "Highest bid without a marriage",
        ),
        "blind_bidding": place("playing", 3, "Blind bidding", essential=True),
        "left_100": place("playing", 4, "“Left 100”"),
        "must_beat": place(
            "playing",
            6,
            "Must head the trick when able",
        ),
        "must_trump": place(
            "playing",
            5,
            "Must trump when out of the suit",
            essential=True,
        ),
        "nine_lottery": place("playing", 6, "Nine lottery"),
        "bombs_per_game": place(
            "special_cards",
            0,
            "Bombs per player and game",
            essential=True,
        ),
        "marriage_clubs": place("special_cards", 1, "Clubs marriage"),
        "marriage_spades": place("special_cards", 2, "Spades marriage"),
        "marriage_hearts": place("special_cards", 3, "Hearts marriage"),
        "marriage_diamonds": place("special_cards", 4, "Diamonds marriage"),
        "marriage_when_following": place(
            "special_cards", 5, "Marriage also when following"
        ),
        "marriage_in_first_trick": place(
            "special_cards",
            6,
            "Marriage in the first trick",
        ),
        "target_score": place("scoring", 0, "Play to", essential=True),
        "bomb_points": place(
            "scoring",
            1,
            "Points for each opponent on a bomb",
            shown_when={"bombs_per_game": {"not": [0]}},
        ),
        "blind_give_up_points": place(
            "scoring",
            2,
            "Points for giving up a blind contract",
            shown_when={"blind_bidding": [True]},
        ),
        "lottery_points": place(
            "scoring",
            3,
            "Nine lottery points",
            shown_when={"nine_lottery": [True]},
        ),
        "stuck_at_800": place("scoring", 4, "“800 and stuck”"),
        "stuck_score": place(
            "scoring",
            5,
            "“Stuck” from",
            shown_when={"stuck_at_800": [True]},
        ),
        "stuck_bars": place(
            "scoring",
            6,
            "“Stuck” bars",
            shown_when={"stuck_at_800": [True]},
        ),
        "failed_contract": place(
            "scoring",
            7,
            "A failed contract costs",
        ),
    },
    essentials=(
        "target_score",
        "two_player_variant",
        "talon",
        "must_trump",
        "blind_bidding",
        "bombs_per_game",
    ),
)
