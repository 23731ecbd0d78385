"""Lock-step comparison of our hold'em engine with pokerkit on seeded random hands.

Each hand is drawn from a seed: variant, 2–9 players, blinds, antes (none, every player, big
blind ante), a straddle, stacks of 1–400 big blinds biased to the edges (a chip either side of a
blind or of a full raise), boards rigged for ties. Both engines get the same cards; every move is
chosen from our legal actions (biased to exact minimum raises, maximum raises, all-ins one chip
either side of a full raise) and applied to both; at every step we compare the actor, legal
actions, call amount, raise bounds, bets, stacks and the pot, and at the end the final stacks.

pokerkit departs from the rulebooks in a few places; each is written here with its reason and
checked to be exactly that departure (see ``Departures``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pokerkit import Automation, BettingStructure, FixedLimitTexasHoldem, NoLimitTexasHoldem, State

from app.games.cards import deck as full_deck
from app.games.holdem import HOLDEM
from app.games.holdem.engine import betting_options, in_the_betting
from app.games.holdem.state import State as Ours

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitTexasHoldem(NoLimitTexasHoldem):
    """pokerkit has no pot-limit Texas hold'em class; its no-limit one with the pot-limit structure."""

    betting_structure = BettingStructure.POT_LIMIT


TIE_BOARDS = (
    ["Ts", "Jh", "Qd", "Kc", "As"],
    ["5c", "5d", "5h", "5s", "Kd"],
    ["2h", "3h", "4h", "5h", "6h"],
    ["9c", "9d", "Ks", "Kh", "Qc"],
)


@dataclass
class Tally:
    hands: int = 0
    steps: int = 0
    departures: Counter[str] = field(default_factory=Counter)


class Mismatch(AssertionError):
    pass


def _check(cond: bool, what: str, info: dict[str, Any]) -> None:
    if not cond:
        raise Mismatch(f"{what}: {info}")


def scenario(rng: random.Random) -> dict[str, Any]:
    variant = rng.choices(["no_limit", "pot_limit", "fixed_limit"], [6, 2, 2])[0]
    players = rng.choice([2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9])
    bb = rng.choice([2, 2, 4, 10, 20])
    sb = rng.choice([bb // 2, bb // 2, max(1, bb // 2 - 1), bb - 1])
    ante_type = rng.choice(["none", "none", "none", "every_player", "big_blind"])
    ante = rng.choice([1, max(1, bb // 2), bb]) if ante_type != "none" else 0
    straddle = variant == "no_limit" and players >= 3 and rng.random() < 0.25
    stacks = []
    for _ in range(players):
        r = rng.random()
        if r < 0.5:
            stacks.append(rng.randint(1, 400 * bb))
        elif r < 0.8:
            stacks.append(
                max(
                    1,
                    rng.choice([bb, 2 * bb, 3 * bb, 4 * bb, 6 * bb, 10 * bb, sb, ante + bb])
                    + rng.choice([-1, 0, 1]),
                )
            )
        else:
            stacks.append(rng.randint(1, 40 * bb))
    cards = rng.sample(full_deck(), 52)
    if rng.random() < 0.15:
        board = rng.choice(TIE_BOARDS)
        rest = [c for c in cards if c not in board]
        start = 2 * players
        burns = rest[start : start + 3]
        cards = [
            *rest[:start],
            burns[0],
            *board[:3],
            burns[1],
            board[3],
            burns[2],
            board[4],
            *rest[start + 3 :],
        ]
    return {
        "variant": variant,
        "players": players,
        "sb": sb,
        "bb": bb,
        "ante_type": ante_type,
        "ante": ante,
        "straddle": straddle,
        "stacks": stacks,
        "deck": cards,
    }


def ours_new(sc: dict[str, Any]) -> Ours:
    sheet = HOLDEM.sheet(
        {
            "variant": sc["variant"],
            "seats": max(sc["players"], 2),
            "small_blind": sc["sb"],
            "big_blind": sc["bb"],
            "ante": sc["ante"],
            "ante_type": sc["ante_type"],
            "straddle": "utg" if sc["straddle"] else "off",
            "format": "cash",
            "buy_in_min": 1,
            "buy_in_max": 10**9,
            "buy_in_default": 1,
            "max_hands": 1,
            "raise_cap": 4,
            "heads_up_uncapped": sc["heads_up_uncapped"],
            # pokerkit deals heads-up from the big blind (the rulebooks' order), the seed from the
            # small blind (H10): the same deck gives the same holes only in pokerkit's order.
            "heads_up_deal": "big_blind_first",
        }
    )
    # Seat 0 holds the button; seat i is player i in pokerkit's order after the rotation below.
    return HOLDEM.new(sheet, sc["players"], seed="diff", deck=sc["deck"], button=0, stacks=sc["stacks"])


def pk_new(sc: dict[str, Any], order: list[int], straddled: bool) -> State:
    blinds: tuple[int, ...] = (sc["sb"], sc["bb"], 2 * sc["bb"]) if straddled else (sc["sb"], sc["bb"])
    # pokerkit's raw ante index 1 is the big blind, heads-up included (it reverses both lists there).
    antes: Any = sc["ante"] if sc["ante_type"] == "every_player" else ({1: sc["ante"]} if sc["ante"] else 0)
    stacks = [sc["stacks"][seat] for seat in order]
    n = sc["players"]
    if sc["variant"] == "fixed_limit":
        return FixedLimitTexasHoldem.create_state(
            AUTOMATIONS, False, antes, blinds, sc["bb"], 2 * sc["bb"], stacks, n
        )
    game = NoLimitTexasHoldem if sc["variant"] == "no_limit" else PotLimitTexasHoldem
    return game.create_state(AUTOMATIONS, False, antes, blinds, sc["bb"], stacks, n)


def _pump(pk: State, holes: dict[int, list[str]], board: list[str]) -> None:
    """Deal pokerkit the same cards as ours (burn cards are unknown to the comparison)."""
    while pk.status:
        if pk.can_deal_hole():
            i = pk.hole_dealee_index
            assert i is not None
            pk.deal_hole(holes[i].pop(0))
        elif pk.can_burn_card():
            pk.burn_card("??")
        elif pk.can_deal_board():
            count = 3 if not pk.board_cards else 1
            got = len(pk.board_cards)
            pk.deal_board("".join(board[got : got + count]))
        elif (
            pk.actor_index is not None
            and pk.checking_or_calling_amount == 0
            and not pk.can_complete_bet_or_raise_to()
        ):
            # pokerkit asks a player for a check that nobody could answer (everyone else is
            # all-in); there is no decision, so we do not ask. Check it through.
            pk.check_or_call()
        else:
            return


def _bet_size(sc: dict[str, Any], street: int) -> int:
    return int(sc["bb"]) * (2 if street >= 2 else 1)


def choose(legal: list[dict[str, Any]], rng: random.Random, o: dict[str, Any], top: int) -> dict[str, Any]:
    kinds = {a["type"]: a for a in legal}
    r = rng.random()
    if "fold" in kinds and r < 0.15:
        return {"type": "fold"}
    raise_ = kinds.get("raise") or kinds.get("bet")
    if raise_ is not None and r < 0.6:
        low, high = raise_["min"], raise_["max"]
        picks = [low, high, min(low + 1, high), max(high - 1, low), rng.randint(low, high)]
        return {"type": raise_["type"], "to": rng.choice(picks)}
    if "all_in" in kinds and r < 0.66:
        return {"type": "all_in"}
    return {"type": "check"} if "check" in kinds else {"type": "call"}


def run_hand(seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    sc = scenario(rng)
    sc["heads_up_uncapped"] = seed % 2 == 0  # both readings of the fixed-limit cap, half each
    s = ours_new(sc)
    h = s.hand
    straddled = False
    if h is None:  # everyone was all-in from the blinds and antes: the hand is already over
        order = list(s.history[-1]["players"])
        short_bb = s.history[-1]["blinds"][order.index(s.history[-1]["bb_seat"])] < sc["bb"]
    else:
        short_bb = h.posted[h.bb] < sc["bb"]
        order = list(h.players)
        if h.phase == "straddle":
            straddled = rng.random() < 0.7
            s, _ = HOLDEM.apply(s, h.actor, {"type": "straddle" if straddled else "no_straddle"})
    n = len(order)
    pk = pk_new(sc, order, straddled)
    holes = {i: [sc["deck"][i], sc["deck"][n + i]] for i in range(n)}
    board = [sc["deck"][2 * n + k] for k in (1, 2, 3, 5, 7)]
    _pump(pk, holes, board)
    tally.hands += 1
    street_seen, full_seen, short_seen = 0, False, False
    for _ in range(200):
        h = s.hand
        if h is None or h.phase != "bet":
            break
        tally.steps += 1
        info = {"seed": seed, "scenario": {k: v for k, v in sc.items() if k != "deck"}, "log": h.actions}
        seat = h.actor
        _check(pk.actor_index is not None and order[pk.actor_index] == seat, "actor", info)
        for i, x in enumerate(order):
            _check(pk.stacks[i] == s.stacks[x], "stack", {**info, "player": i, "pk": list(pk.stacks)})
            _check(pk.bets[i] == h.bets[x], "bet", {**info, "player": i, "pk": list(pk.bets)})
        _check(pk.total_pot_amount == sum(h.committed), "pot", {**info, "pk": pk.total_pot_amount})
        o = betting_options(s, h, seat)
        legal = HOLDEM.legal_actions(s, seat)
        kinds = {a["type"] for a in legal}
        pk_call = pk.checking_or_calling_amount
        if short_bb and h.street == 0 and pk_call != o["call"]:
            # pokerkit lets later players call a big blind that is all-in for less than a full blind
            # for what it posted; the rulebooks (and we) make them call the full big blind.
            _check(
                (
                    pk_call is not None
                    and pk_call < o["call"]
                    and o["to_call"] + h.bets[seat] == sc["bb"] * (2 if straddled else 1)
                )
                or h.current > sc["bb"],
                "short big blind",
                info,
            )
            tally.departures["short all-in big blind called for less"] += 1
            return
        _check(pk.can_fold() == ("fold" in kinds), "fold", info)
        _check(pk_call == o["call"], "call amount", {**info, "pk": pk_call, "ours": o})
        pk_raise = pk.can_complete_bet_or_raise_to()
        if straddled and h.street == 0 and pk_raise != o["can_raise"]:
            # See "minimum raise over a straddle" below: a raise pokerkit calls full was short
            # for us and did not reopen the betting. The rest of the preflop round differs.
            tally.departures["minimum raise over a straddle"] += 1
            return
        if (
            sc["variant"] == "fixed_limit"
            and o["can_raise"]
            and not pk_raise
            and h.acted[seat] >= 0
            and h.current - h.acted[seat] < _bet_size(sc, h.street)
        ):
            # TDA: in limit an all-in of at least half a bet reopens the betting for players who
            # already acted; pokerkit never lets a short all-in reopen it. Not comparable further.
            tally.departures["fixed-limit half-bet all-in reopens"] += 1
            return
        if (
            sc["variant"] == "fixed_limit"
            and o["can_raise"]
            and pk_raise
            and pk.min_completion_betting_or_raising_to_amount != o["min"]
            and h.current > h.full_level
        ):
            # In limit a player facing an all-in for less than half a bet may call it or complete
            # a full bet over the last full bet (Robert's Rules); pokerkit counts the raise from
            # the all-in amount. Fixed sizes differ from here on.
            _check(
                o["min"] == min(h.full_level + _bet_size(sc, h.street), h.bets[seat] + s.stacks[seat]),
                "fixed-limit completion",
                info,
            )
            tally.departures["fixed-limit completion over a short all-in"] += 1
            return
        if street_seen != h.street:
            street_seen, full_seen, short_seen = h.street, False, False
        if (
            o["can_raise"]
            and not pk_raise
            and sc["variant"] != "fixed_limit"
            and short_seen
            and h.acted[seat] >= 0
            and h.current - h.acted[seat] >= h.min_inc
        ):
            # Short all-ins that together make a full raise over what a player last faced reopen
            # the betting for that player (TDA); pokerkit does not add them up.
            tally.departures["short all-ins adding up to a full raise reopen"] += 1
            return
        if not o["can_raise"] and pk_raise and not full_seen and h.acted[seat] >= 0:
            # An all-in for less than a full bet or raise (over the big blind preflop, or an
            # opening bet below the big blind after a check) does not reopen the betting for a
            # player who already acted (TDA); pokerkit reopens it while no full bet or raise has
            # been made in the round. Not comparable further.
            tally.departures["short all-in before any full bet reopens"] += 1
            return
        if (
            sc["variant"] == "fixed_limit"
            and o["can_raise"]
            and not pk_raise
            and short_seen
            and h.bet_count >= 2
        ):
            # The cap counts bets and raises; an all-in for less than half a bet is neither, but
            # pokerkit counts it toward its cap. Not comparable further.
            tally.departures["fixed-limit cap counts a short all-in"] += 1
            return
        if (
            o["can_raise"]
            and not pk_raise
            and sc["variant"] == "fixed_limit"
            and sc["heads_up_uncapped"]
            and h.bet_count >= 4
            and in_the_betting(s, h) == 2
        ):
            # Robert's Rules 3.4 (and most rooms) lift the fixed-limit cap while two players are
            # heads-up in the betting; pokerkit keeps it. Not comparable further.
            tally.departures["fixed-limit cap lifted heads-up"] += 1
            return
        if not o["can_raise"] and pk_raise:
            # pokerkit caps fixed limit at four raises after the blind preflop; the rulebooks' cap
            # (a bet and three raises) counts the big blind as the bet.
            _check(
                sc["variant"] == "fixed_limit" and h.street == 0 and h.bet_count == 4, "raise closed", info
            )
            tally.departures["fixed-limit preflop cap counts the blind"] += 1
        elif (
            straddled
            and h.street == 0
            and (
                pk_raise != o["can_raise"]
                or (pk_raise and pk.min_completion_betting_or_raising_to_amount != o["min"])
            )
        ):
            # After a straddle the rulebooks make the next raise at least a straddle more (the
            # straddle acts as the big blind); pokerkit asks only a big blind more. While both
            # allow a raise, ours is the stricter minimum and the rest must agree; once a raise
            # it calls full is short for us (and does not reopen the betting), the rest of the
            # preflop round is not comparable.
            pk_min = pk.min_completion_betting_or_raising_to_amount
            tally.departures["minimum raise over a straddle"] += 1
            if pk_raise != o["can_raise"]:
                return
            _check(pk_min is not None and pk_min < o["min"], "straddle min", info)
            _check(pk.max_completion_betting_or_raising_to_amount == o["max"], "straddle max", info)
        else:
            _check(pk_raise == o["can_raise"], "can raise", {**info, "ours": o})
            if pk_raise:
                pk_min = pk.min_completion_betting_or_raising_to_amount
                pk_max = pk.max_completion_betting_or_raising_to_amount
                _check(pk_min == o["min"], "min raise", {**info, "pk": pk_min, "ours": o})
                _check(pk_max == o["max"], "max raise", {**info, "pk": pk_max, "ours": o})
        action = choose(legal, rng, o, h.bets[seat] + s.stacks[seat])
        pk_target = h.bets[seat] + s.stacks[seat] if action["type"] == "all_in" else action.get("to", -1)
        s, events = HOLDEM.apply(s, seat, action)
        full_seen = full_seen or any(e.type in ("bet", "raise") and e.data["full"] for e in events)
        short_seen = short_seen or any(e.type in ("bet", "raise") and not e.data["full"] for e in events)
        if action["type"] == "fold":
            pk.fold()
        elif action["type"] in ("check", "call") or (action["type"] == "all_in" and not o["can_raise"]):
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(pk_target)
        if s.hand is not None and s.hand.phase == "bet":
            _pump(pk, holes, board)
    final = s.history[-1]
    _pump(pk, holes, list(s.last["board"]) if s.last else board)
    _check(
        not pk.status,
        "pokerkit hand not over",
        {"seed": seed, "actor": pk.actor_index, "log": final["actions"]},
    )
    ours_final = final["finishing_stacks"]
    pk_final = list(pk.stacks)
    if ours_final != pk_final:
        # pokerkit gives all the odd chips of a split pot to the first winner left of the button,
        # and merges side pots won by the same hands before splitting them; the rulebooks
        # (and we, H20) split each pot separately and give one odd chip each to the winners from
        # the button's left. Our awards redone by pokerkit's rule must give exactly its stacks.
        assert s.last is not None
        _check(
            pokerkit_split(ours_final, s.last["awards"], order) == pk_final,
            "final stacks",
            {"seed": seed, "ours": ours_final, "pk": pk_final, "log": final["actions"]},
        )
        tally.departures["odd chips of split pots"] += 1


def pokerkit_split(final: list[int], awards: list[dict[str, Any]], order: list[int]) -> list[int]:
    """Our awards redone as pokerkit splits: it kills the losing hands first, so side pots with
    the same winners merge, and each pot's odd chips all go to its first winner left of the button."""
    stacks = dict(zip(order, final, strict=True))
    merged: dict[tuple[int, ...], tuple[int, dict[int, int]]] = {}
    for line in awards:
        key = (line["run"], *sorted(int(k) for k in line["shares"]))
        amount, shares = merged.get(key, (0, {}))
        shares = dict(shares)
        for k, v in line["shares"].items():
            shares[int(k)] = shares.get(int(k), 0) + v
        merged[key] = (amount + line["amount"], shares)
    for amount, shares in merged.values():
        winners = [x for x in order if x in shares]
        quotient, remainder = divmod(amount, len(winners))
        for x in winners:
            stacks[x] += quotient + (remainder if x == winners[0] else 0) - shares[x]
    return [stacks[x] for x in order]
