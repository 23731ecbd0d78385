"""How the rule-sheet form lays out each game's options, kept apart from the options themselves.

The engines' rule sheets say what an option is (type, default, bounds, a one-line description in
three languages). This table says where the form shows it: its topic group, its order there, whether
it is one of the few essentials a host sees before "More house rules", a short label, and when it
applies at all ("shown when" other options hold certain values). ``with_layout`` merges it into a
game's JSON schema as ``x-`` extras, so the browser's form stays generated from the schema and a new
option with no entry here still renders (group ``other``, after the rest).

Descriptions lose their rule-id tags ("(H16)", "(P1: …)") for the visible text; the ids move to
``x-rules`` for tooltips and the printable sheet's notes.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from app.games.holdem.rules import LEVELS_TURBO

GROUPS: tuple[str, ...] = ("dealing", "playing", "special_cards", "scoring", "timers", "chips", "other")

Label = tuple[str, str, str]  # en, et, fi
ShownWhen = Mapping[str, Any]  # option -> list of values it must hold, or {"not": [values]}


@dataclass(frozen=True)
class Placement:
    group: str
    order: int
    label: Label
    essential: bool = False
    shown_when: ShownWhen | None = None


@dataclass(frozen=True)
class GameLayout:
    """``seat_option`` is the sheet's own player count, which the form sets from the room's seats:
    ``most`` (a table for up to that many) or ``exact`` (a game for exactly that many)."""

    seat_option: str
    seat_role: Literal["most", "exact"]
    options: Mapping[str, Placement] = field(default_factory=dict)
    # The order of the essentials on the form (after the turn timer); unlisted essentials follow.
    essentials: tuple[str, ...] = ()


def _p(
    group: str,
    order: int,
    en: str,
    et: str,
    fi: str,
    *,
    essential: bool = False,
    shown_when: ShownWhen | None = None,
) -> Placement:
    return Placement(group, order, (en, et, fi), essential, shown_when)


COMMON: dict[str, Placement] = {
    "turn_timer_seconds": _p(
        "timers",
        0,
        "Turn timer (seconds, 0 = none)",
        "Käigu aeg (sekundit, 0 = piiramata)",
        "Siirtoaika (sekuntia, 0 = ei rajaa)",
        essential=True,
    ),
    "time_bank_seconds": _p(
        "timers",
        1,
        "Time bank (extra seconds per player)",
        "Ajapank (lisasekundid mängijale)",
        "Aikapankki (lisäsekunnit pelaajalle)",
    ),
    "decision_timer_seconds": _p(
        "timers",
        2,
        "Time for an optional choice (seconds, 0 = waits)",
        "Aeg valikuliseks otsuseks (sekundit, 0 = ootab)",
        "Aika vapaaehtoiseen valintaan (sekuntia, 0 = odottaa)",
    ),
    "bot_takeover_seconds": _p(
        "timers",
        3,
        "A bot plays for a dropped player after (seconds, 0 = never)",
        "Robot mängib lahkunu eest pärast (sekundit, 0 = mitte kunagi)",
        "Botti pelaa poistuneen puolesta (sekunnin jälkeen, 0 = ei koskaan)",
    ),
}

PALACE = GameLayout(
    "most_players",
    "most",
    {
        "most_players": _p("other", 0, "Most players", "Mängijaid kõige rohkem", "Pelaajia enintään"),
        "deal": _p("dealing", 0, "The deal", "Jagamine", "Jako", essential=True),
        "deck": _p("dealing", 1, "Deck", "Kaardipakk", "Korttipakka"),
        "decks": _p("dealing", 2, "Number of decks", "Pakkide arv", "Pakkojen määrä"),
        "jokers": _p("dealing", 3, "Jokers per deck", "Jokkereid paki kohta", "Jokereita pakkaa kohden"),
        "opening": _p("dealing", 4, "Who starts", "Kes alustab", "Kuka aloittaa"),
        "opening_cards": _p(
            "dealing", 5, "Which 3s count for who starts", "Millised kolmed loevad alustaja jaoks",
            "Mitkä kolmoset ratkaisevat aloittajan",
        ),
        "when_stuck": _p(
            "playing", 0, "When you cannot play", "Kui sa ei saa käia", "Kun et voi pelata", essential=True
        ),
        "voluntary_pick_up": _p(
            "playing",
            1,
            "Pick up the pile at will",
            "Paki võib alati üles võtta",
            "Pinon saa nostaa milloin vain",
        ),
        "after_pick_up": _p(
            "playing",
            2,
            "Who starts after a pick-up",
            "Kes alustab pärast ülesvõtmist",
            "Kuka aloittaa pinon noston jälkeen",
        ),
        "turn_up_face_down": _p(
            "playing",
            3,
            "Turn up the face-down card at once",
            "Kinnine kaart pööratakse kohe",
            "Piilokortti käännetään heti",
        ),
        "four_from_hand": _p(
            "playing",
            4,
            "Lay four of a kind aside from the hand",
            "Neli ühesugust käest kõrvale",
            "Neljä samaa kädestä sivuun",
        ),
        "cut_in": _p(
            "playing",
            5,
            "Cut in with the fourth card",
            "Neljanda kaardiga vahele",
            "Väliin neljännellä kortilla",
        ),
        "add_drawn": _p(
            "playing",
            6,
            "Add a drawn card of the same rank",
            "Tõmmatud sama kaardi lisamine",
            "Nostetun samanarvoisen kortin lisääminen",
        ),
        "low_card": _p(
            "special_cards",
            0,
            "Low card (the next plays lower)",
            "Madal kaart (järgmine käib madalama)",
            "Matala kortti (seuraava pelaa pienemmän)",
            essential=True,
        ),
        "eight_transparent": _p(
            "special_cards",
            1,
            "An eight is see-through",
            "Kaheksa on läbipaistev",
            "Kahdeksikko on läpinäkyvä",
            essential=True,
        ),
        "ten_burn": _p(
            "special_cards",
            2,
            "A ten burns the pile",
            "Kümme põletab paki",
            "Kymppi polttaa pinon",
            essential=True,
        ),
        "ten_fits": _p("special_cards", 3, "Where a ten fits", "Kuhu kümme sobib", "Mihin kymppi sopii"),
        "joker": _p(
            "special_cards",
            4,
            "What a joker does",
            "Mida jokker teeb",
            "Mitä jokeri tekee",
            shown_when={"jokers": {"not": [0]}},
        ),
        "no_out_on_special": _p(
            "special_cards",
            5,
            "No going out on a 2, 10 or ace",
            "Lõpetada ei tohi 2, 10 ega ässaga",
            "Ei lopetusta kakkoseen, kymppiin tai ässään",
        ),
        "finish": _p(
            "scoring", 0, "When the game ends", "Millal mäng lõpeb", "Milloin peli päättyy", essential=True
        ),
        "stalemate_moves": _p(
            "scoring",
            1,
            "Moves without progress before the game stops",
            "Edasiminekuta käike, enne kui mäng peatub",
            "Siirtoja ilman edistystä ennen pelin loppua",
        ),
    },
    essentials=("deal", "when_stuck", "low_card", "eight_transparent", "ten_burn", "finish"),
)

_CASH = {"format": ["cash"]}
_TOURNAMENT = {"format": ["tournament"]}

HOLDEM = GameLayout(
    "seats",
    "most",
    {
        "seats": _p("other", 0, "Seats at the table", "Kohti laua ääres", "Paikkoja pöydässä"),
        "variant": _p("playing", 0, "Betting limit", "Panustamise limiit", "Panostusraja", essential=True),
        "raise_cap": _p(
            "playing",
            1,
            "Most bets per round",
            "Panuseid ringis kõige rohkem",
            "Panoksia kierroksella enintään",
            shown_when={"variant": ["fixed_limit"]},
        ),
        "heads_up_uncapped": _p(
            "playing",
            1,
            "No cap on raises heads-up",
            "Kahekesi mängides tõstete piirang puudub",
            "Kahdestaan korotuksilla ei ole kattoa",
            shown_when={"variant": ["fixed_limit"]},
        ),
        "straddle": _p("playing", 2, "Straddle", "Straddle", "Straddle"),
        "run_it_twice": _p("playing", 3, "Run it twice", "Jaga kaks korda", "Kahdesti jakaminen"),
        "showdown": _p("playing", 4, "At the showdown", "Showdown’il", "Showdownissa"),
        "show_after_hand": _p(
            "playing",
            5,
            "Show cards after the hand",
            "Kaartide näitamine pärast jaotust",
            "Korttien näyttäminen jaon jälkeen",
        ),
        "format": _p(
            "chips",
            0,
            "Cash game or tournament",
            "Rahamäng või turniir",
            "Käteispeli vai turnaus",
            essential=True,
        ),
        "small_blind": _p(
            "chips", 1, "Small blind", "Väike blind", "Pieni blindi", essential=True, shown_when=_CASH
        ),
        "big_blind": _p(
            "chips", 2, "Big blind", "Suur blind", "Iso blindi", essential=True, shown_when=_CASH
        ),
        "buy_in_default": _p(
            "chips", 3, "Starting stack", "Algne stäkk", "Aloituspino", essential=True, shown_when=_CASH
        ),
        "buy_in_min": _p(
            "chips", 4, "Smallest buy-in", "Väikseim sissemaks", "Pienin sisäänosto", shown_when=_CASH
        ),
        "buy_in_max": _p(
            "chips", 5, "Largest buy-in", "Suurim sissemaks", "Suurin sisäänosto", shown_when=_CASH
        ),
        "rebuy": _p(
            "chips",
            6,
            "Rebuys between hands",
            "Juurdeost jaotuste vahel",
            "Lisäostot jakojen välissä",
            shown_when=_CASH,
        ),
        "ante_type": _p("chips", 7, "Antes", "Ante", "Ante"),
        "ante": _p(
            "chips",
            8,
            "Ante amount",
            "Ante suurus",
            "Anten koko",
            shown_when={**_CASH, "ante_type": {"not": ["none"]}},
        ),
        "starting_chips": _p(
            "chips",
            9,
            "Starting chips",
            "Algžetoonid",
            "Aloituspelimerkit",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "levels": _p(
            "chips",
            10,
            "Blind levels",
            "Blinditasemed",
            "Blinditasot",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "level_length": _p(
            "timers",
            2,
            "Level length",
            "Taseme pikkus",
            "Tason pituus",
            essential=True,
            shown_when=_TOURNAMENT,
        ),
        "level_by": _p(
            "timers", 3, "Blinds rise by", "Blindid tõusevad", "Blindit nousevat", shown_when=_TOURNAMENT
        ),
        "max_hands": _p(
            "timers",
            4,
            "Close the table after this many hands (0 = never)",
            "Laud suletakse pärast nii mitut jaotust (0 = ei kunagi)",
            "Pöytä suljetaan näin monen jaon jälkeen (0 = ei koskaan)",
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
)

_TWO = {"players": [2]}

THOUSAND = GameLayout(
    "players",
    "exact",
    {
        "players": _p("other", 0, "Players", "Mängijaid", "Pelaajia"),
        "two_player_variant": _p(
            "dealing",
            0,
            "Two players: the game",
            "Kahekesi: mänguviis",
            "Kaksinpeli: muunnelma",
            essential=True,
            shown_when=_TWO,
        ),
        "two_player_contract": _p(
            "scoring",
            9,
            "Two players: the starter must make",
            "Kahekesi: alustaja peab saama",
            "Kaksinpeli: aloittajan on saatava",
            shown_when={**_TWO, "two_player_variant": ["stock"]},
        ),
        "two_player_minus": _p(
            "scoring",
            10,
            "Two players: a failed contract counts minus",
            "Kahekesi: ebaõnnestunud leping läheb miinusesse",
            "Kaksinpeli: epäonnistunut sopimus miinukselle",
            shown_when={**_TWO, "two_player_variant": ["stock"]},
        ),
        "talon": _p("dealing", 1, "The talon", "Talong", "Ostos", essential=True),
        "four_nines_redeal": _p(
            "dealing",
            2,
            "Four nines: deal again",
            "Neli üheksat: jagatakse uuesti",
            "Neljä yhdeksikköä: jaetaan uudelleen",
        ),
        "low_hand_redeal": _p(
            "dealing",
            3,
            "“17 or less”: deal again",
            "„17 või vähem”: jagatakse uuesti",
            "”17 tai vähemmän”: jaetaan uudelleen",
        ),
        "low_hand_limit": _p(
            "dealing",
            4,
            "Weak hand: at most",
            "Nõrk käsi: kõige rohkem",
            "Heikko käsi: enintään",
            shown_when={"low_hand_redeal": [True]},
        ),
        "redeals_before_penalty": _p(
            "dealing",
            5,
            "Deals again in a row before a penalty",
            "Uusi jagamisi järjest enne trahvi",
            "Uusia jakoja peräkkäin ennen sakkoa",
        ),
        "redeal_penalty": _p(
            "dealing",
            6,
            "Penalty for too many deals again",
            "Liiga paljude uute jagamiste trahv",
            "Sakko liian monesta uudesta jaosta",
        ),
        "opening_bid": _p("playing", 0, "Opening bid", "Avapakkumine", "Aloitushuuto"),
        "bid_step": _p("playing", 1, "Bids rise by", "Pakkumise samm", "Huudon askel"),
        "bid_limit_without_marriage": _p(
            "playing",
            2,
            "Highest bid without a marriage",
            "Kõrgeim pakkumine ilma paarita",
            "Korkein huuto ilman paria",
        ),
        "blind_bidding": _p("playing", 3, "Blind bidding", "Pime pakkumine", "Sokea huuto", essential=True),
        "left_100": _p("playing", 4, "“Left 100”", "„Jäetud 100”", "”Jätetty 100”"),
        "must_beat": _p(
            "playing",
            6,
            "Must head the trick when able",
            "Kui saad, pead tihi üle lööma",
            "Jos voit, sinun on lyötävä tikki yli",
        ),
        "must_trump": _p(
            "playing",
            5,
            "Must trump when out of the suit",
            "Masti puudumisel tuleb trumbata",
            "Maan puuttuessa on lyötävä valttia",
            essential=True,
        ),
        "nine_lottery": _p("playing", 6, "Nine lottery", "Üheksaloterii", "Yhdeksikkölotto"),
        "bombs_per_game": _p(
            "special_cards",
            0,
            "Bombs per player and game",
            "Pomme mängija kohta",
            "Pommeja pelaajaa kohden",
            essential=True,
        ),
        "marriage_clubs": _p("special_cards", 1, "Clubs marriage", "Ristipaar", "Ristipari"),
        "marriage_spades": _p("special_cards", 2, "Spades marriage", "Potipaar", "Patapari"),
        "marriage_hearts": _p("special_cards", 3, "Hearts marriage", "Ärtupaar", "Herttapari"),
        "marriage_diamonds": _p("special_cards", 4, "Diamonds marriage", "Ruutupaar", "Ruutupari"),
        "marriage_when_following": _p(
            "special_cards", 5, "Marriage also when following", "Paar ka järgides", "Pari myös seuratessa"
        ),
        "marriage_in_first_trick": _p(
            "special_cards",
            6,
            "Marriage in the first trick",
            "Paar esimeses tihis",
            "Pari ensimmäisessä tikissä",
        ),
        "target_score": _p("scoring", 0, "Play to", "Mängitakse kuni", "Pelataan", essential=True),
        "bomb_points": _p(
            "scoring",
            1,
            "Points for each opponent on a bomb",
            "Pommi punktid igale vastasele",
            "Pommin pisteet kullekin vastustajalle",
            shown_when={"bombs_per_game": {"not": [0]}},
        ),
        "blind_give_up_points": _p(
            "scoring",
            2,
            "Points for giving up a blind contract",
            "Punktid pimedast lepingust loobumisel",
            "Pisteet sokeasta sopimuksesta luopumisesta",
            shown_when={"blind_bidding": [True]},
        ),
        "lottery_points": _p(
            "scoring",
            3,
            "Nine lottery points",
            "Üheksaloterii punktid",
            "Yhdeksikkölottopisteet",
            shown_when={"nine_lottery": [True]},
        ),
        "stuck_at_800": _p("scoring", 4, "“800 and stuck”", "„800 ja kinni”", "”800 ja jumissa”"),
        "stuck_score": _p(
            "scoring",
            5,
            "“Stuck” from",
            "„Kinni” alates",
            "”Jumissa” alkaen",
            shown_when={"stuck_at_800": [True]},
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

LAYOUTS: dict[str, GameLayout] = {"palace": PALACE, "holdem": HOLDEM, "thousand": THOUSAND}


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

_RULE_ONLY = re.compile(r"\s*[\(\[]([PHT]\d+(?:\s*[–,-]\s*[PHT]?\d+)*)[\)\]]")
_RULE_LEAD = re.compile(r"\(([PHT]\d+(?:[–-][PHT]?\d+)?):\s*")
_RULE_ID = re.compile(r"\b[PHT]\d+\b")


def strip_rule_ids(text: str) -> tuple[str, list[str]]:
    """A description without its rule-id tags, and the ids it named."""
    ids: list[str] = []
    for match in list(_RULE_ONLY.finditer(text)) + list(_RULE_LEAD.finditer(text)):
        ids.extend(_RULE_ID.findall(match.group(1)))
    text = _RULE_LEAD.sub("(", _RULE_ONLY.sub("", text))
    return text.strip(), list(dict.fromkeys(ids))


def missing_placements(game: str, schema: Mapping[str, Any]) -> list[str]:
    """Options of ``game``'s schema that this table does not place (they render in group ``other``)."""
    layout = LAYOUTS.get(game)
    placed = {**COMMON, **(layout.options if layout else {})}
    return [name for name in schema.get("properties", {}) if name not in placed]


def with_layout(game: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with the form's extras merged into each property (a copy; the input is unchanged)."""
    out: dict[str, Any] = copy.deepcopy(dict(schema))
    layout = LAYOUTS.get(game)
    placed = {**COMMON, **(layout.options if layout else {})}
    if layout is not None:
        out["x-seats"] = {"option": layout.seat_option, "role": layout.seat_role}
    out["x-groups"] = list(GROUPS)
    for position, (name, prop) in enumerate(out.get("properties", {}).items()):
        texts = prop.get("i18n") or {}
        rules: list[str] = []
        for lang, text in list(texts.items()):
            texts[lang], found = strip_rule_ids(text)
            rules.extend(found)
        if "description" in prop:
            prop["description"], found = strip_rule_ids(prop["description"])
            rules.extend(found)
        prop["x-rules"] = list(dict.fromkeys(rules))
        placement = placed.get(name)
        if placement is None:
            prop.update({"x-group": "other", "x-order": 1000 + position, "x-essential": False})
            continue
        essentials = ("turn_timer_seconds", *(layout.essentials if layout else ()))
        prop.update(
            {
                "x-group": placement.group,
                "x-order": placement.order,
                "x-essential": placement.essential,
                "x-essential-order": essentials.index(name)
                if name in essentials
                else len(essentials) + position,
                "x-label": dict(zip(("en", "et", "fi"), placement.label, strict=True)),
            }
        )
        if placement.shown_when:
            prop["x-shown-when"] = {key: value for key, value in placement.shown_when.items()}
    if game == "holdem" and "levels" in out.get("properties", {}):
        out["properties"]["levels"]["x-structures"] = copy.deepcopy(BLIND_STRUCTURES)
    return out
