"""The Thousand (Tuhat) rule sheet, its presets and the card facts every module reads.

Options are data read at named decision points (rule ids of ``docs/rules/thousand.md`` in brackets):
player count and the two 2-player variants [T1, T18], opening bid and step [T7], the bid limit
without a marriage and the marriage values [T8], talon handling [T9], trumping and heading the trick [T14],
marriages while following and in the first trick [T15], bombs [T10], blind bidding [T11],
"left 100" [T12], the four-nines and "17 or less" redeals [T5], the nine lottery [T6],
"800 and stuck" [T17] and the target score [T3].
"""

from __future__ import annotations

from typing import ClassVar, Literal

from app.games.base import RuleSheetBase, option
from app.games.cards import deck, sort_key

# [T1] 24 cards; card points and the trick order A > 10 > K > Q > J > 9 (not the poker order).
DECK: tuple[str, ...] = tuple(deck(low_rank="9"))
POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
TRICK_ORDER = "9JQKTA"
TRICK_RANK: dict[str, int] = {rank: i for i, rank in enumerate(TRICK_ORDER)}
# Hands and shown cards in one fixed order (rank 9 < … < A as in the deck, then suit), for
# canonical actions and views.
BY_RANK = sort_key()
SUITS = "cdhs"
RED = frozenset("dh")


def points(card: str) -> int:
    return POINTS[card[0]]


def total_points(cards: list[str]) -> int:
    return sum(POINTS[card[0]] for card in cards)


def colour(card: str) -> str:
    return "red" if card[1] in RED else "black"


class RuleSheet(RuleSheetBase):
    """Every house rule of Thousand; the defaults are the seed's 3-player game (preset ``tuhat``)."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    players: int = option(
        3, "Number of players: 2, 3, or 4 (with 4 the dealer sits out and scores the talon).", ge=2, le=4)
    target_score: int = option(1000, "The game ends when a player reaches this score.", ge=50, le=5000)
    opening_bid: int = option(
        100, "The compulsory opening bid of the player left of the dealer.", ge=50, le=200)
    bid_step: int = option(10, "Bids rise in steps of this many points.", ge=5, le=50)
    bid_limit_without_marriage: int = option(
        120,
        "Highest bid without a marriage in hand; with marriages the limit rises by their values.",
        ge=60,
        le=120,
    )
    marriage_spades: int = option(40, "Value of the spades marriage (K+Q).", ge=0, le=200)
    marriage_clubs: int = option(60, "Value of the clubs marriage (K+Q).", ge=0, le=200)
    marriage_diamonds: int = option(80, "Value of the diamonds marriage (K+Q).", ge=0, le=200)
    marriage_hearts: int = option(100, "Value of the hearts marriage (K+Q).", ge=0, le=200)
    talon: Literal["give", "keep"] = option(
        "give",
        "After taking the talon the bidder gives one card to each opponent (8 tricks), or keeps it and "
        "lays 3 cards aside, counted to his tricks (7 tricks).",
    )
    must_trump: bool = option(False, "A player void in the led suit must play a trump if he holds one.")
    must_beat: bool = option(
        False,
        "A player following suit must play a higher card of the led suit than those in the trick, "
        "when he holds one (unless the trick is already trumped).",
    )
    marriage_when_following: bool = option(
        True,
        "A marriage may also be declared with a king or queen played to follow, changing trump at once.",
    )
    marriage_in_first_trick: bool = option(
        True, "A marriage may be declared in the first trick of a deal (the bidder's first lead).")
    bombs_per_game: int = option(
        3,
        "Bombs each player may throw per game (0: no bombs); a bomb gives up the deal after the talon.",
        ge=0,
        le=10,
    )
    bomb_points: int = option(60, "Points each opponent scores when the bidder throws a bomb.", ge=0, le=200)
    blind_bidding: bool = option(
        True, "Players may bid without looking at their cards; a blind contract counts double.")
    blind_give_up_points: int = option(
        120, "Points each opponent scores when a blind contract is given up.", ge=0, le=400)
    left_100: bool = option(
        True, '"Left 100": if both pass the opener\'s 100, he takes the talon without showing it.')
    four_nines_redeal: bool = option(True, "A hand of four nines is shown and the cards are dealt again.")
    low_hand_redeal: bool = option(
        True,
        '"17 or less": a dealt hand worth at most the limit may be shown for a redeal before bidding; '
        "redeals in a row cost the dealer a penalty and pass the deal.",
    )
    low_hand_limit: int = option(
        17, "A hand worth at most this many card points may be shown for a redeal.", ge=0, le=60)
    redeals_before_penalty: int = option(
        2,
        "Redeals in a row (four nines or a low hand) after which the dealer pays the penalty.",
        ge=1,
        le=10,
    )
    redeal_penalty: int = option(
        100,
        "Points the dealer loses after too many redeals in a row; the deal then passes on.",
        ge=0,
        le=400,
    )
    nine_lottery: bool = option(True, "A player dealt three nines may run the nine lottery before bidding.")
    lottery_points: int = option(
        100, "Points of the nine lottery (shared equally when both guess right).", ge=0, le=400)
    stuck_at_800: bool = option(
        True,
        '"800 and stuck": a player at the limit or above may use no bombs, blind bids, low-hand '
        "redeals or lotteries; he plays on only by winning auctions.",
    )
    stuck_bars: Literal["every_option", "named_tricks"] = option(
        "every_option",
        '"800 and stuck" bars every option (bombs, left 100, redeals, blind bids, the nine lottery), or '
        "only the tricks the seed lists by name (bomb, left 100, 17 or less).",
    )
    failed_contract: Literal["contract", "points_taken"] = option(
        "contract", "A failed contract costs the bid, or the points the bidder took in the deal (T16).")
    stuck_score: int = option(800, 'The score from which "800 and stuck" applies.', ge=0, le=5000)
    two_player_variant: Literal["stock", "banks"] = option(
        "stock",
        "Two players: 6 cards each and a stock to draw from, with a fixed contract; or 8 each, two "
        "banks of 4 and an auction.",
    )
    two_player_contract: Literal[100, 120] = option(
        100, "Two players, stock variant: the points the starting player must make.")
    two_player_minus: bool = option(
        True, "Two players, stock variant: a failed contract is subtracted (else it scores nothing).")

    def min_players(self) -> int:
        return self.players

    def max_players(self) -> int:
        return self.players

    def marriage_value(self, suit: str) -> int:
        return {
            "s": self.marriage_spades,
            "c": self.marriage_clubs,
            "d": self.marriage_diamonds,
            "h": self.marriage_hearts,
        }[suit]

    def stock_variant(self) -> bool:
        return self.players == 2 and self.two_player_variant == "stock"

    def banks_variant(self) -> bool:
        return self.players == 2 and self.two_player_variant == "banks"


PRESETS: dict[str, RuleSheet] = {
    # The seed's game for three with every trick it describes: bombs (3 a game), blind bidding,
    # the nine lottery, the four-nines redeal, "left 100", "17 or less" and "800 and stuck";
    # a marriage may be declared while following [T15]; no duty to head the trick [T14].
    "tuhat": RuleSheet(),
    # The seed's main text as written for four: the dealer sits out and scores the talon [T13].
    "tuhat-4": RuleSheet(players=4),
    # The seed's first 2-player game: 6 cards each, a stock, the starter must make 100 [T18].
    "tuhat-2": RuleSheet(players=2, two_player_variant="stock", blind_bidding=False, nine_lottery=False),
    # Estonian marriage values: clubs 100, spades 80, hearts 60, diamonds 40.
    "tuhat-eesti": RuleSheet(
        marriage_clubs=100, marriage_spades=80, marriage_hearts=60, marriage_diamonds=40
    ),
}
