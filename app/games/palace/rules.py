"""The Palace rule sheet: every house-rule option of the three seeds, and their presets.

Each option cites the rule id (docs/rules/palace.md) it decides. The presets take each seed's reading:
``hiina-turakas`` the base column of the Estonian house-rule matrix, ``china-hand`` the Finnish
text, ``palace`` the Estonian Palace how-to.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from app.games.base import InvalidSheet, RuleSheetBase, option

DeckSize = Literal["52", "36"]
Decks = Literal["one", "two", "two_from_three_players"]
JokerEffect = Literal["reset", "transparent"]
Deal = Literal["three_three_three", "choose_from_six"]
Opening = Literal["turn_up", "lowest_card", "first_three", "left_of_dealer", "left_plays_lowest"]
OpeningCards = Literal["hand", "face_up", "hand_and_face_up"]
WhenStuck = Literal["draw_may_play", "draw_ends_turn", "draw_and_pass", "pick_up"]
LowCard = Literal["7", "9", "none"]
TenBurn = Literal["optional", "always"]
TenFits = Literal["up_to_ten", "anything"]
Finish = Literal["first_out_wins", "play_to_last"]
AfterPickUp = Literal["next_player", "picker"]


class RuleSheet(RuleSheetBase):
    """Every option of the Palace family (P1–P25)."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5

    most_players: int = option(5, "Most players at the table (P1: 2–5; China Hand 2–4).", ge=2, le=5)
    deck: DeckSize = option("52", "Cards per deck: 52 (2 to ace) or 36 (6 to ace) (P2).")
    decks: Decks = option("one", "Number of decks: one, two, or two from three players up (P2).")
    jokers: int = option(0, "Jokers added to each deck, 0–2 (P2).", ge=0, le=2)
    joker: JokerEffect = option(
        "reset",
        "A joker fits on anything and either resets the pile like a 2 or is transparent like an 8 (P2).",
    )
    deal: Deal = option(
        "three_three_three",
        "Deal 3 face-down, 3 face-up, 3 to hand; or 3 face-down and 6 to hand, 3 of them laid face-up (P3).",
    )
    opening: Opening = option(
        "turn_up",
        "How play opens: a card turned up from the stock, the holder of the lowest card, the first holder "
        "of a 3 (then 4…), the player left of the dealer on an empty pile, or the player left of the "
        "dealer playing the lowest card in his hand (P5).",
    )
    opening_cards: OpeningCards = option(
        "hand",
        "Which cards decide who opens with the lowest card or the first 3: those in hand, the face-up "
        "cards, or both (P5).",
    )
    when_stuck: WhenStuck = option(
        "draw_may_play",
        "A player who cannot or will not play: draws one card and may play it if it fits, draws one card "
        "and then picks up the pile, draws one card and the turn is over (the pile stays), or picks up "
        "the pile at once (P9).",
    )
    twos_low: bool = option(
        True,
        "A 2 counts as the lowest card when the opening looks for the lowest card (P5); off: the lowest "
        "is 3 and the 2 is special.",
    )
    voluntary_pick_up: bool = option(
        True, "A player may pick up the pile (or draw) although a play was possible (P10).")
    low_card: LowCard = option(
        "7", "The card after which the next player must play that rank or lower: 7, 9, or none (P14).")
    eight_transparent: bool = option(
        True, "An 8 fits on anything and is transparent: the card below it stays active (P13).")
    ten_fits: TenFits = option(
        "up_to_ten",
        "Where a 10 may go: like an ordinary card (on 2–10, not on the low card) or on anything (P15).",
    )
    ten_burn: TenBurn = option(
        "optional", "A 10 burns the pile if its player says so (and then plays again), or always (P15).")
    four_from_hand: bool = option(
        False, "Four cards of one rank held in hand may be laid aside at any time (P16).")
    cut_in: bool = option(
        False, "Any player may complete a four of a kind on the pile out of turn and then plays on (P16).")
    add_drawn: bool = option(
        False,
        "A card drawn after a play, of the rank just played, may be added until the next player moves (P17).",
    )
    turn_up_face_down: bool = option(
        False, "Playing a face-up card turns up the face-down card below it at once (P19).")
    finish: Finish = option(
        "first_out_wins",
        "The first player out wins and the game ends, or play on to the last one, the loser (P22).",
    )
    no_out_on_special: bool = option(False, "A player may not go out on a 2, a 10 or an ace (P23).")
    after_pick_up: AfterPickUp = option(
        "next_player",
        "Who starts the new pile after a pick-up: the next player, or the player who picked up (P11).",
    )
    stalemate_moves: int = option(
        300,
        "Moves without progress (no card burned, drawn or played from the table, nobody out) after which "
        "the game ends and the rest are placed by cards left.",
        ge=50,
        le=5000,
    )

    def max_players(self) -> int:
        return self.most_players

    # -- derived facts read by the engine --------------------------------------------------

    def deck_count(self, players: int) -> int:
        """How many decks are shuffled together for ``players`` (P2)."""
        if self.decks == "two" or (self.decks == "two_from_three_players" and players >= 3):
            return 2
        return 1

    def cards_in_deck(self, players: int) -> int:
        per_deck = (52 if self.deck == "52" else 36) + self.jokers
        return per_deck * self.deck_count(players)

    def cards_needed(self, players: int) -> int:
        """Nine cards per player (P3), and one more for a turned-up base card (P5)."""
        return 9 * players + (1 if self.opening == "turn_up" else 0)

    def low_rank(self) -> str | None:
        return None if self.low_card == "none" else self.low_card


PRESETS: dict[str, RuleSheet] = {
    # The base column of the Estonian house-rule matrix.
    "hiina-turakas": RuleSheet(),
    # The Finnish text: 2–4 players, start left of the dealer, no draw when stuck, no 7 effect,
    # an ordinary 8, a 10 on anything that always burns, face-down turned up under played face-up
    # cards, and play on to the last player.
    "china-hand": RuleSheet(
        most_players=4,
        opening="left_of_dealer",
        when_stuck="pick_up",
        low_card="none",
        eight_transparent=False,
        ten_fits="anything",
        ten_burn="always",
        turn_up_face_down=True,
        finish="play_to_last",
    ),
    # The Estonian Palace how-to: two decks from three players, choose 3 face-up out of 6, a turned-up
    # start card, you must play if you can, 2s and 10s wild, 10 always burns.
    "palace": RuleSheet(
        decks="two_from_three_players",
        deal="choose_from_six",
        when_stuck="pick_up",
        voluntary_pick_up=False,
        low_card="none",
        eight_transparent=False,
        ten_fits="anything",
        ten_burn="always",
        # P5: "esimene avatud kolmega mängija alustab" – the first player with an *open* (face-up)
        # three starts; it matters when the room picks the `first_three` opening.
        opening_cards="face_up",
        # P5: "Kaardid on paigutatud nii, et kõrgeim on äss ja madalaim 3. 2 on spetsiaalne kaart":
        # when a room picks a lowest-card opening, the lowest is a 3.
        twos_low=False,
    ),
}


def check_sheet(sheet: RuleSheet) -> None:
    """Refuse sheets that cannot be dealt (P24: checked before any deal)."""
    most = sheet.most_players
    if sheet.cards_needed(most) > sheet.cards_in_deck(most):
        raise InvalidSheet(
            "most_players",
            "{players} players need {needed} cards but the deck has {have}: choose fewer "
            "players or more cards.",
            players=most, needed=sheet.cards_needed(most), have=sheet.cards_in_deck(most),
        )
