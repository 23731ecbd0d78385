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
        3,
        "Number of players: 2, 3, or 4 (with 4 the dealer sits out and scores the talon).",
        "Mängijate arv: 2, 3 või 4 (neljaga jagaja ei mängi ja saab talongi punktid).",
        "Pelaajien määrä: 2, 3 tai 4 (neljällä jakaja istuu ja saa ostoksen pisteet).",
        ge=2,
        le=4,
    )
    target_score: int = option(
        1000,
        "The game ends when a player reaches this score.",
        "Mäng lõpeb, kui mängija jõuab selle punktisummani.",
        "Peli päättyy, kun pelaaja saavuttaa tämän pistemäärän.",
        ge=50,
        le=5000,
    )
    opening_bid: int = option(
        100,
        "The compulsory opening bid of the player left of the dealer.",
        "Jagajast vasakul istuva mängija kohustuslik avapakkumine.",
        "Jakajan vasemmalla puolella istuvan pakollinen aloitushuuto.",
        ge=50,
        le=200,
    )
    bid_step: int = option(
        10,
        "Bids rise in steps of this many points.",
        "Pakkumised tõusevad selle sammuga.",
        "Huudot nousevat tämän verran kerrallaan.",
        ge=5,
        le=50,
    )
    bid_limit_without_marriage: int = option(
        120,
        "Highest bid without a marriage in hand; with marriages the limit rises by their values.",
        "Kõrgeim pakkumine ilma paarita; paaridega tõuseb piir nende väärtuse võrra.",
        "Korkein huuto ilman paria; parit nostavat rajaa arvonsa verran.",
        ge=60,
        le=120,
    )
    marriage_spades: int = option(
        40,
        "Value of the spades marriage (K+Q).",
        "Potipaari (K+Q) väärtus.",
        "Pataparin (K+Q) arvo.",
        ge=0,
        le=200,
    )
    marriage_clubs: int = option(
        60,
        "Value of the clubs marriage (K+Q).",
        "Ristipaari (K+Q) väärtus.",
        "Ristiparin (K+Q) arvo.",
        ge=0,
        le=200,
    )
    marriage_diamonds: int = option(
        80,
        "Value of the diamonds marriage (K+Q).",
        "Ruutupaari (K+Q) väärtus.",
        "Ruutuparin (K+Q) arvo.",
        ge=0,
        le=200,
    )
    marriage_hearts: int = option(
        100,
        "Value of the hearts marriage (K+Q).",
        "Ärtupaari (K+Q) väärtus.",
        "Herttaparin (K+Q) arvo.",
        ge=0,
        le=200,
    )
    talon: Literal["give", "keep"] = option(
        "give",
        "After taking the talon the bidder gives one card to each opponent (8 tricks), or keeps it and "
        "lays 3 cards aside, counted to his tricks (7 tricks).",
        "Talongi võtnud pakkuja annab igale vastasele ühe kaardi (8 tihi) või jätab talongi endale ja "
        "paneb 3 kaarti kõrvale, mis loetakse tema tihidesse (7 tihi).",
        "Ostoksen ottanut antaa yhden kortin kullekin vastustajalle (8 tikkiä) tai pitää ostoksen ja "
        "asettaa 3 korttia sivuun omiin tikkeihinsä (7 tikkiä).",
    )
    must_trump: bool = option(
        False,
        "A player void in the led suit must play a trump if he holds one.",
        "Mängija, kellel pole käidud masti, peab trumpama, kui tal on trump.",
        "Pelaajan, jolla ei ole lyötyä maata, on lyötävä valttia, jos hänellä on sitä.",
    )
    must_beat: bool = option(
        False,
        "A player following suit must play a higher card of the led suit than those in the trick, "
        "when he holds one (unless the trick is already trumped).",
        "Masti järgiv mängija peab käima tihis olevatest kõrgema sama masti kaardi, kui tal see on "
        "(välja arvatud, kui tihi on juba trumbatud).",
        "Maata seuraavan pelaajan on lyötävä tikin korkeinta korttia korkeampi saman maan kortti, "
        "jos hänellä on sellainen (paitsi jos tikki on jo lyöty valtilla).",
    )
    marriage_when_following: bool = option(
        True,
        "A marriage may also be declared with a king or queen played to follow, changing trump at once.",
        "Paari võib kuulutada ka järgides käidud kuninga või emandaga; trump muutub kohe.",
        "Parin voi ilmoittaa myös myöhemmin heitetyllä kuninkaalla tai kuningattarella; valtti vaihtuu heti.",
    )
    marriage_in_first_trick: bool = option(
        True,
        "A marriage may be declared in the first trick of a deal (the bidder's first lead).",
        "Paari võib kuulutada juba jagamise esimeses tihis (pakkuja esimesel käigul).",
        "Parin saa ilmoittaa jo jaon ensimmäisessä tikissä (huutajan ensimmäisellä lyönnillä).",
    )
    bombs_per_game: int = option(
        3,
        "Bombs each player may throw per game (0: no bombs); a bomb gives up the deal after the talon.",
        "Pommid mängija kohta mängus (0: pomme pole); pomm loobub jagamisest pärast talongi.",
        "Pommit pelaajaa kohden pelissä (0: ei pommeja); pommi luopuu jaosta ostoksen jälkeen.",
        ge=0,
        le=10,
    )
    bomb_points: int = option(
        60,
        "Points each opponent scores when the bidder throws a bomb.",
        "Punktid igale vastasele, kui pakkuja viskab pommi.",
        "Pisteet kullekin vastustajalle, kun huutaja heittää pommin.",
        ge=0,
        le=200,
    )
    blind_bidding: bool = option(
        True,
        "Players may bid without looking at their cards; a blind contract counts double.",
        "Mängijad võivad pakkuda kaarte vaatamata; pime leping loeb topelt.",
        "Pelaajat voivat huutaa katsomatta korttejaan; sokea sopimus lasketaan kaksinkertaisena.",
    )
    blind_give_up_points: int = option(
        120,
        "Points each opponent scores when a blind contract is given up.",
        "Punktid igale vastasele, kui pimedast lepingust loobutakse.",
        "Pisteet kullekin vastustajalle, kun sokeasta sopimuksesta luovutaan.",
        ge=0,
        le=400,
    )
    left_100: bool = option(
        True,
        '"Left 100": if both pass the opener\'s 100, he takes the talon without showing it.',
        '"Jäetud 100": kui mõlemad avaja 100 peale passivad, võtab ta talongi näitamata.',
        '"Jätetty 100": jos molemmat passaavat aloittajan sataan, hän ottaa ostoksen näyttämättä.',
    )
    four_nines_redeal: bool = option(
        True,
        "A hand of four nines is shown and the cards are dealt again.",
        "Nelja üheksaga käsi näidatakse ja kaardid jagatakse uuesti.",
        "Neljän yhdeksikön käsi näytetään ja kortit jaetaan uudelleen.",
    )
    low_hand_redeal: bool = option(
        True,
        '"17 or less": a dealt hand worth at most the limit may be shown for a redeal before bidding; '
        "redeals in a row cost the dealer a penalty and pass the deal.",
        '"17 või vähem": käe, mille väärtus on kuni piir, võib enne pakkumist näidata ja lasta uuesti '
        "jagada; järjestikused ümberjagamised maksavad jagajale trahvi ja jagamine läheb edasi.",
        '"17 tai vähemmän": enintään rajan arvoisen käden voi näyttää ennen huutoa ja pyytää uutta '
        "jakoa; peräkkäiset uudet jaot maksavat jakajalle sakon ja jako siirtyy.",
    )
    low_hand_limit: int = option(
        17,
        "A hand worth at most this many card points may be shown for a redeal.",
        "Käe punktipiir ümberjagamiseks.",
        "Käden pisteraja uudelle jaolle.",
        ge=0,
        le=60,
    )
    redeals_before_penalty: int = option(
        2,
        "Redeals in a row (four nines or a low hand) after which the dealer pays the penalty.",
        "Järjestikuste ümberjagamiste arv, mille järel jagaja maksab trahvi.",
        "Peräkkäisten uusien jakojen määrä, jonka jälkeen jakaja maksaa sakon.",
        ge=1,
        le=10,
    )
    redeal_penalty: int = option(
        100,
        "Points the dealer loses after too many redeals in a row; the deal then passes on.",
        "Punktid, mis jagaja kaotab liiga paljude järjestikuste ümberjagamiste järel.",
        "Pisteet, jotka jakaja menettää liian monen peräkkäisen uuden jaon jälkeen.",
        ge=0,
        le=400,
    )
    nine_lottery: bool = option(
        True,
        "A player dealt three nines may run the nine lottery before bidding.",
        "Kolme üheksaga mängija võib enne pakkumist korraldada üheksaloterii.",
        "Kolme yhdeksikön saanut voi järjestää korttilotterian ennen huutoa.",
    )
    lottery_points: int = option(
        100,
        "Points of the nine lottery (shared equally when both guess right).",
        "Üheksaloterii punktid (jagatakse, kui mõlemad arvavad õigesti).",
        "Lotterian pisteet (jaetaan, jos molemmat arvaavat).",
        ge=0,
        le=400,
    )
    stuck_at_800: bool = option(
        True,
        '"800 and stuck": a player at the limit or above may use no bombs, blind bids, low-hand '
        "redeals or lotteries; he plays on only by winning auctions.",
        '"800 ja kinni": piirini jõudnud mängija ei või kasutada pomme, pimedat pakkumist, '
        "ümberjagamist ega loteriid.",
        '"800 ja jumissa": rajan saavuttanut ei voi käyttää pommeja, sokeaa huutoa, uutta jakoa '
        "eikä lotteriaa.",
    )
    stuck_score: int = option(
        800,
        'The score from which "800 and stuck" applies.',
        'Punktisumma, millest "800 ja kinni" kehtib.',
        'Pistemäärä, josta "800 ja jumissa" alkaa.',
        ge=0,
        le=5000,
    )
    two_player_variant: Literal["stock", "banks"] = option(
        "stock",
        "Two players: 6 cards each and a stock to draw from, contract fixed (stock); or 8 each, two "
        "banks of 4 and an auction (banks).",
        "Kaks mängijat: 6 kaarti ja pakk, fikseeritud leping (stock); või 8 kaarti, kaks 4-kaardist "
        "panka ja oksjon (banks).",
        "Kaksi pelaajaa: 6 korttia ja pakka, kiinteä sopimus (stock); tai 8 korttia, kaksi 4 kortin "
        "pankkia ja huutokauppa (banks).",
    )
    two_player_contract: Literal[100, 120] = option(
        100,
        "Two players, stock variant: the points the starting player must make.",
        "Kaks mängijat, stock: alustaja peab koguma nii palju punkte.",
        "Kaksi pelaajaa, stock: aloittajan kerättävä pistemäärä.",
    )
    two_player_minus: bool = option(
        True,
        "Two players, stock variant: a failed contract is subtracted (else it scores nothing).",
        "Kaks mängijat, stock: ebaõnnestunud leping lahutatakse (muidu null).",
        "Kaksi pelaajaa, stock: epäonnistunut sopimus vähennetään (muuten nolla).",
    )

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
