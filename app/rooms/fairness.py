"""Provably fair deals in a room: the next deal's commitment, the seats' contributions, and the
events that publish shuffle commitments, shuffle keys and the reveal (``docs/fairness.md``).

The room always holds a **pending round** for its next deal: a server seed and nonce from the
CSPRNG and their commitment, shown in every ``room`` message (so in the lobby, and during a game
for the rematch). Seated members send contributions for that commitment whenever they see it; they
never wait for each other, and nothing waits for them. At the deal the round is **sealed**: the
contributions of the members dealt in, in the deal's seat order (none for a seat that sent nothing),
give the game's seed, and the deal's log entry keeps everything (its action is the server's own and
never leaves it), so a restart loses nothing that counted. A round not yet sealed lives in memory
only: after a restart the room shows a fresh commitment and the browsers contribute again.

After every commit the room asks the game for its shuffles: a new shuffle's key commitment is
published, an opened shuffle's key too, and at the game's end the server seed and nonce.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games import fair
from app.games.base import Game
from app.rooms.errors import RoomError


@dataclass
class Round:
    """The next deal's server seed, nonce and commitment, and the contributions by member id."""

    server_seed: str
    nonce: str
    commitment: str
    contributions: dict[int, str] = field(default_factory=dict)

    @classmethod
    def fresh(cls) -> Round:
        server_seed, nonce = fair.new_server_seed()
        return cls(server_seed, nonce, fair.commitment(server_seed, nonce))


@dataclass(frozen=True)
class Sealed:
    """A dealt game's fairness material, as its deal entry keeps it."""

    server_seed: str
    nonce: str
    commitment: str
    contributions: tuple[str | None, ...]
    seed: str

    def to_action(self) -> dict[str, Any]:
        return {"server_seed": self.server_seed, "nonce": self.nonce, "commitment": self.commitment,
                "contributions": list(self.contributions)}

    @classmethod
    def from_deal(cls, action: Mapping[str, Any]) -> Sealed | None:
        """From a deal entry's action; ``None`` for a deal made before rooms had fair deals."""
        data = action.get("fair")
        if not isinstance(data, Mapping):
            return None
        return cls(data["server_seed"], data["nonce"], data["commitment"],
                   tuple(data["contributions"]), str(action["seed"]))


class Fairness:
    """One room's pending round and its current game's sealed material (memory; see the module)."""

    def __init__(self) -> None:
        self.pending = Round.fresh()
        self.current: Sealed | None = None
        # Whether ``current`` is known for the game in play (read from its deal entry when not).
        self.loaded = False
        # The current game's shuffles as published: how many have their key commitment out, the
        # first one whose key is not out, and those after it whose key is (``None``: not known yet,
        # counted from the state when next needed).
        self.committed: int | None = None
        self.open_upto = 0
        self.opened: set[int] = set()
        # The current game's shuffle keys and their commitments by label (hashed once per game).
        self._keys: dict[str, tuple[str, str]] = {}

    def announce(self, seats: Mapping[int, int]) -> dict[str, Any]:
        """The ``fair`` part of the room message: the pending commitment and which seats (by the
        member ids seated in ``seats``: seat -> member id) have contributed to it."""
        given = self.pending.contributions
        return {"commitment": self.pending.commitment,
                "contributed": sorted(seat for seat, member in seats.items() if member in given)}

    def shared(self) -> dict[str, Any]:
        """The pending round's public part for the room's other instances: its commitment and
        the member ids that contributed."""
        return {"commitment": self.pending.commitment, "members": sorted(self.pending.contributions)}

    def contribute(self, member_id: int, commitment: str, value: str) -> bool:
        """Take a member's contribution for the pending commitment; ``False`` when they had already
        given one (the first one counts). Raises ``RoomError`` for another commitment or bad bytes."""
        if commitment != self.pending.commitment:
            raise RoomError("stale_commitment", "That commitment is no longer the next deal's; "
                            "contribute to the one in the latest room message.")
        if not fair.is_contribution(value):
            raise RoomError("bad_contribution", "A contribution is 64 lowercase hex digits (32 bytes).")
        if member_id in self.pending.contributions:
            return False
        self.pending.contributions[member_id] = value
        return True

    def seal(self, order: Sequence[int]) -> Sealed:
        """The deal's material from the pending round, ``order`` being the member ids in the deal's
        seat order; a fresh round then waits for the next deal."""
        sealed = self._take(order)
        self.current, self.loaded = sealed, True
        self.committed = None
        self._keys = {}
        return sealed

    def seal_round(self, order: Sequence[int | None]) -> Sealed:
        """A later shuffle's round from the pending one (a game's next hand or deal),
        ``order`` being the member ids in the game's seat order (``None``: an empty seat); a fresh
        round then waits for the shuffle after it. The game's own material stays current."""
        return self._take(order)

    def _take(self, order: Sequence[int | None]) -> Sealed:
        """The pending round sealed with the contributions of ``order``'s members (``None``: an
        empty seat), and a fresh round in its place."""
        pending = self.pending
        given = tuple(pending.contributions.get(member) if member is not None else None for member in order)
        self.pending = Round.fresh()
        return Sealed(pending.server_seed, pending.nonce, pending.commitment, given,
                      fair.shuffle_seed(pending.server_seed, given))

    @staticmethod
    def deal_event(sealed: Sealed) -> dict[str, Any]:
        """What the deal's public event adds: the commitment, the contributions by seat and the
        seats that sent none."""
        return {"commitment": sealed.commitment, "contributions": list(sealed.contributions),
                "withheld": [seat for seat, value in enumerate(sealed.contributions) if value is None]}

    def restore(self, deal_action: Mapping[str, Any] | None) -> None:
        """The current game's material from its deal entry's action (``None``: no game)."""
        self.current = Sealed.from_deal(deal_action) if deal_action is not None else None
        self.loaded = True
        self._keys = {}

    def forget_current(self) -> None:
        """The room reloaded: the current game's material is read again when next needed."""
        self.current, self.loaded, self.committed = None, False, None
        self._keys = {}

    def tracking(self) -> tuple[int | None, int, frozenset[int]]:
        """What ``events`` has counted as published, to put back when a commit fails."""
        return self.committed, self.open_upto, frozenset(self.opened)

    def set_tracking(self, saved: tuple[int | None, int, frozenset[int]]) -> None:
        self.committed, self.open_upto, self.opened = saved[0], saved[1], set(saved[2])

    def _track(self, game: Game[Any, Any], before: Any) -> None:
        """What has been published of the current game's shuffles, from the state before a commit."""
        self.opened = set()
        if before is None:
            self.committed, self.open_upto = 0, 0
            return
        listed = game.shuffles(before)
        self.committed = len(listed)
        self.open_upto = next((i for i, s in enumerate(listed) if not s.open), len(listed))
        self.opened = {i for i, s in enumerate(listed) if s.open and i > self.open_upto}

    def events(self, game: Game[Any, Any], before: Any, after: Any, game_no: int) -> list[dict[str, Any]]:
        """The public event rows a commit from ``before`` (``None``: a new deal) to ``after`` adds:
        key commitments of new shuffles, keys of opened ones, and the reveal at the game's end."""
        sealed = self.current
        if sealed is None or after is None:
            return []
        if before is None or self.committed is None:
            self._track(game, before)
        committed = self.committed or 0
        rows: list[dict[str, Any]] = []
        listed = game.shuffles(after, self.open_upto)
        opened_rounds: dict[str | None, Mapping[str, Any] | None] = {}
        # Only the shuffles from the first one not yet open: a long table's old hands cost nothing.
        for index, shuffle in enumerate(listed, start=self.open_upto):
            if index < committed and not (shuffle.open and index not in self.opened):
                continue  # published as it stands: nothing to hash
            key, key_commitment = self._key(shuffle.seed_for(sealed.seed), shuffle.label)
            if index >= committed:
                rows.append(_public("shuffle_commitment", {"game_no": game_no, "label": shuffle.label,
                                                           "commitment": key_commitment}))
                committed = index + 1
            if shuffle.open and index not in self.opened:
                rows.append(_public("shuffle_key", {"game_no": game_no, "label": shuffle.label, "key": key}))
                self.opened.add(index)
                opened_rounds[_round_seed(shuffle)] = None if shuffle.round is None else shuffle.round["fair"]
        self.committed = committed
        while self.open_upto in self.opened:
            self.opened.discard(self.open_upto)
            self.open_upto += 1
        ended = game.outcome(after) is not None and (before is None or game.outcome(before) is None)
        # A round's secrets go out when the last shuffle it keyed opens (the shuffles before the
        # listed ones are all open). The room seals a new round before every later shuffle
        # (``Room._seal_rounds``), so an opened round keys nothing more.
        for seed, material in opened_rounds.items():
            mine = [s for s in listed if _round_seed(s) == seed]
            if (seed is None and ended) or not all(s.open for s in mine):
                continue  # the game's own at its end: the reveal below
            if material is None:
                material = sealed.to_action()
            rows.append(_public("round_reveal", {
                "game_no": game_no, "labels": [s.label for s in mine], "commitment": material["commitment"],
                "server_seed": material["server_seed"], "nonce": material["nonce"]}))
        if ended:
            rows.append(_public("reveal", {"game_no": game_no, "server_seed": sealed.server_seed,
                                           "nonce": sealed.nonce, "commitment": sealed.commitment}))
        return rows

    def _key(self, seed: str, label: str) -> tuple[str, str]:
        """A shuffle's key and its commitment, hashed once per game (a label's seed never changes
        once its shuffle is made)."""
        found = self._keys.get(label)
        if found is None:
            key = fair.shuffle_key(seed, label)
            found = self._keys[label] = (key, fair.key_commitment(key))
        return found


def _round_seed(shuffle: fair.Shuffle) -> str | None:
    return None if shuffle.round is None else str(shuffle.round["seed"])


def revealable_rounds(game: Game[Any, Any], state: Any) -> dict[str | None, Mapping[str, Any] | None]:
    """The rounds of ``state``'s game whose secrets are out (``Fairness.events``), by seed
    (``None``: the game's own seed), each with its material (``None`` for the game's own): those
    whose shuffles are all open."""
    shut: set[str | None] = set()
    found: dict[str | None, Mapping[str, Any] | None] = {}
    for shuffle in game.shuffles(state):
        seed = _round_seed(shuffle)
        found[seed] = None if shuffle.round is None else shuffle.round["fair"]
        if not shuffle.open:
            shut.add(seed)
    return {seed: material for seed, material in found.items() if seed not in shut}


def _public(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "data": data, "audience": None}


RECORD_FORMAT = "houserules-game-record/1"


def build_record(game: Game[Any, Any], sheet: Any, deal: Any, state: Any, seat: int | None,
                 events: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's verifiable record as ``seat`` may see it (``None``: a spectator): see
    ``docs/fairness.md`` for the fields. ``deal`` is the game's deal entry, ``state`` its state now
    and ``events`` the log's events the seat may see. Seeds and keys appear only once published."""
    sealed = Sealed.from_deal(deal.action)
    if sealed is None:
        raise ValueError("a deal without fairness material")
    players = int(deal.action["players"])
    over = game.outcome(state) is not None
    dealt = game.new(sheet, players, seed=sealed.seed)
    shuffles = []
    revealed = revealable_rounds(game, state)
    for shuffle in game.shuffles(state):
        key = fair.shuffle_key(shuffle.seed_for(sealed.seed), shuffle.label)
        item: dict[str, Any] = {"label": shuffle.label, "cards": list(shuffle.cards),
                                "commitment": fair.key_commitment(key)}
        if shuffle.round is not None:
            material = shuffle.round["fair"]
            item["round"] = {"commitment": material["commitment"],
                             "contributions": list(material["contributions"])}
            if shuffle.round["seed"] in revealed:
                item["round"].update({"server_seed": material["server_seed"], "nonce": material["nonce"],
                                      "seed": shuffle.round["seed"]})
        if shuffle.open:
            item["key"] = key
            item["deck"] = fair.shuffle_with_key(key, shuffle.cards)
        shuffles.append(item)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game.name,
        "game_no": deal.game_no,
        "sheet": sheet.model_dump(mode="json"),
        "players": players,
        "seat": seat,
        "finished": over,
        "commitment": sealed.commitment,
        "contributions": list(sealed.contributions),
        "shuffles": shuffles,
        "dealt_view": game.view(dealt, seat),
        "events": events,
    }
    if over or None in revealed:  # the game's own seed: at its end, or once all it keyed is open
        record.update({"server_seed": sealed.server_seed, "nonce": sealed.nonce, "seed": sealed.seed})
    return record
