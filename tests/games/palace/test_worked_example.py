"""The worked example round "Näidisvoor samm-sammult" of palace-hiina-turakas-et.txt, move by move.

Mari, Jüri, Kati and Peeter sit in seats 0–3 (clockwise, Mari left of the dealer). A queen is on
the pile: the base card turned up from the stock (P5). The preset is ``hiina-turakas``.
"""

from __future__ import annotations

from app.games.palace import PRESETS, game
from app.games.palace.pile import active_card
from tests.games.palace.helpers import kinds, play, start

MARI, JURI, KATI, PEETER = 0, 1, 2, 3


def test_worked_example_round() -> None:
    hands = [
        ["Kh", "5c", "9c"],  # Mari
        ["8s", "Ts", "As"],  # Jüri
        ["Jc", "4h", "2h"],  # Kati: a jack she cannot play on the king, and a 2 she keeps
        ["7c", "3h", "3s"],  # Peeter
    ]
    face_up = [["Jd", "Qc", "Ks"], ["Jh", "Qh", "Kd"], ["Js", "Qs", "Kc"], ["Ad", "Ac", "Ah"]]
    face_down = [["6c", "6s", "7d"], ["7h", "7s", "8c"], ["8d", "8h", "9s"], ["Tc", "Td", "Th"]]
    stock = ["Qd", "4d", "4s", "2d", "5d", "6d", "9d", "9h", "3c", "3d", "2c", "2s", "4c", "5h", "5s", "6h"]
    t = start(PRESETS["hiina-turakas"], face_down, hands, face_up, stock)
    assert t.pile == ("Qd",) and t.turn == MARI

    # Ladumispaki peal on emand. Mari paneb emanda peale kuninga ja tõmbab käe kolme kaardini.
    t, events = play(t, MARI, {"type": "play", "cards": ["Kh"]})
    assert kinds(events) == ["played", "drew", "drew_cards"]
    assert t.players[MARI].hand == ("4d", "5c", "9c")

    # Jüri paneb kuninga peale 8; aktiivseks jääb kuningas.
    t, _ = play(t, JURI, {"type": "play", "cards": ["8s"]})
    assert active_card(t.sheet, t.pile) == "Kh"

    # Kati ei saa oma soldatit käia, tõmbab ühe kaardi, saab 2 ja paneb selle lauale.
    assert {"type": "play", "cards": ["Jc"]} not in game.legal_actions(t, KATI)
    t, events = play(t, KATI, {"type": "draw"})
    assert t.drawn == "2d"
    t, events = play(t, KATI, {"type": "play_drawn"})
    assert t.pile[-1] == "2d"

    # Kahe järel võib järgmine mängija alustada ükskõik millise kaardiga.
    assert active_card(t.sheet, t.pile) is None
    assert {"type": "play", "cards": ["3h"]} in game.legal_actions(t, PEETER)

    # Peeter paneb 7. Nüüd peab Mari käima 7 või väiksema kaardi. Ta paneb 5.
    t, _ = play(t, PEETER, {"type": "play", "cards": ["7c"]})
    legal = game.legal_actions(t, MARI)
    assert {"type": "play", "cards": ["9c"]} not in legal and {"type": "play", "cards": ["5c"]} in legal
    t, _ = play(t, MARI, {"type": "play", "cards": ["5c"]})

    # Jüri paneb 10, mis sobib 5 peale, ja otsustab ladumispaki põletada.
    t, _ = play(t, JURI, {"type": "play", "cards": ["Ts"]})
    assert t.decision == "burn" and t.turn == JURI
    t, events = play(t, JURI, {"type": "burn"})
    assert t.pile == () and kinds(events) == ["burned"]
    assert t.burned == ("Qd", "Kh", "8s", "2d", "7c", "5c", "Ts")

    # Jüri alustab uue paki ässaga.
    assert t.turn == JURI
    t, _ = play(t, JURI, {"type": "play", "cards": ["As"]})

    # Kati paneb ässa peale 2 ning mäng jätkub madalast otsast.
    t, _ = play(t, KATI, {"type": "play", "cards": ["2h"]})
    assert t.pile == ("As", "2h") and active_card(t.sheet, t.pile) is None and t.turn == PEETER
    assert game.outcome(t) is None
