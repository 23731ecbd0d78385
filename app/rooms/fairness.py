"""Provably fair deals in a room: the next deal's commitment, the seats' contributions, and the
events that publish shuffle commitments, shuffle keys and the reveal (``docs/fairness.md``).

The room always holds a **pending round** for its next deal: a server seed and nonce from the
CSPRNG and their commitment, shown in every ``room`` message (so in the lobby, and during a game
for the rematch). Seated members send contributions for that commitment whenever they see it; they
never wait for each other, and nothing waits for them. At the deal the round is **sealed**: the
contributions of the members dealt in, in the deal's seat order (none for a seat that sent nothing),
give the game's seed, and the deal's log entry keeps everything (its action is the server's own and
never leaves it), so a restart loses nothing that counted. The round not yet sealed is kept in the
room's row (``rooms.fair_pending``: written when it is drawn, with the commit that seals the one
before, and at each contribution), so a restart or a reload shows the same commitment with the
same contributions: the server never draws another round silently.

With a signer (``app/signing.py``) each commitment shown and each sealed round is signed.

After every commit the room asks the game for its shuffles: a new shuffle's key commitment is
published, an opened shuffle's key too, and at the game's end the server seed and nonce.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Literal

from app import signing
from app.games import fair
from app.games.base import Game
from app.rooms.errors import RoomError
from app.signing import Signer

# A malformed contribution, by which part of it was sent (two-phase: the hash, then the bytes).
MALFORMED = {
    "hash": "A contribution's hash is 64 lowercase hex digits.",
    "bytes": "A contribution's bytes are 64 lowercase hex digits.",
}


@dataclass
class Round:
    """The next deal's server seed, nonce and commitment; the SHA-256 each member sent of its bytes
    (``hashes``), whether those are sealed (``frozen``: no hash is taken after, and bytes only
    from then), and the bytes revealed for them (``contributions``), by member id."""

    server_seed: str
    nonce: str
    commitment: str
    contributions: dict[int, str] = field(default_factory=dict)
    hashes: dict[int, str] = field(default_factory=dict)
    frozen: bool = False

    @classmethod
    def fresh(cls) -> Round:
        server_seed, nonce = fair.new_server_seed()
        return cls(server_seed, nonce, fair.commitment(server_seed, nonce))

    def to_json(self) -> dict[str, Any]:
        """As ``rooms.fair_pending`` keeps it (contributions by member id)."""
        return {"server_seed": self.server_seed, "nonce": self.nonce, "commitment": self.commitment,
                "contributions": {str(member): value for member, value in self.contributions.items()},
                "hashes": {str(member): value for member, value in self.hashes.items()},
                "frozen": self.frozen}

    @classmethod
    def from_json(cls, data: Any) -> Round | None:
        """A stored round, or ``None`` for none (a room from before rounds were stored) or a
        damaged one (its commitment does not match its seed)."""
        if not isinstance(data, Mapping):
            return None
        try:
            made = fair.commitment(data["server_seed"], data["nonce"])
            given = {int(member): str(value) for member, value in dict(data["contributions"]).items()}
            hashes = {int(member): str(value) for member, value in dict(data.get("hashes") or {}).items()}
        except (KeyError, ValueError, TypeError):
            return None
        if made != data.get("commitment") or not all(fair.is_contribution(v) for v in given.values()):
            return None
        return cls(data["server_seed"], data["nonce"], made, given, hashes, bool(data.get("frozen")))


@dataclass(frozen=True)
class Sealed:
    """A dealt game's fairness material, as its deal entry keeps it."""

    server_seed: str
    nonce: str
    commitment: str
    contributions: tuple[str | None, ...]
    seed: str
    # The server's signature on the sealed round (``app/signing.py``; None: dealt unsigned).
    signature: str | None = None
    # The SHA-256 each seat sent of its bytes before the round's hashes were sealed (None: none
    # sent); empty for a round sealed before contributions had two phases.
    hashes: tuple[str | None, ...] = ()

    def to_action(self) -> dict[str, Any]:
        out: dict[str, Any] = {"server_seed": self.server_seed, "nonce": self.nonce,
                               "commitment": self.commitment, "contributions": list(self.contributions)}
        if self.hashes:
            out["hashes"] = list(self.hashes)
        if self.signature is not None:
            out["signature"] = self.signature
        return out

    @classmethod
    def from_deal(cls, action: Mapping[str, Any]) -> Sealed | None:
        """From a deal entry's action; ``None`` for a deal made before rooms had fair deals."""
        data = action.get("fair")
        if not isinstance(data, Mapping):
            return None
        return cls(data["server_seed"], data["nonce"], data["commitment"],
                   tuple(data["contributions"]), str(action["seed"]), data.get("signature"),
                   tuple(data.get("hashes") or ()))


class Fairness:
    """One room's pending round and its current game's sealed material (memory; see the module)."""

    def __init__(self, room_id: str = "", signer: Signer | None = None) -> None:
        self.room_id = room_id
        self.signer = signer
        self.pending = Round.fresh()
        # The commitment of the pending round as the room's row keeps it (None: not stored yet).
        self.stored: str | None = None
        # Set when a hash or bytes come in (``fair_phase`` waits on it before a deal).
        self.changed = asyncio.Event()
        # The commitment whose hashes have a sealing timer (``fair_phase.arm``).
        self.timed: str | None = None
        self._signed: tuple[str, str | None] = ("", None)
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
        # The labels of the game's first shuffles keyed by its own seed, and how far they are read.
        self._early: tuple[int, list[str]] = (0, [])

    def announce(self, seats: Mapping[int, int]) -> dict[str, Any]:
        """The ``fair`` part of the room message: the pending commitment and which seats (by the
        member ids seated in ``seats``: seat -> member id) have contributed to it."""
        pending = self.pending
        return {"commitment": pending.commitment,
                "signature": self.commitment_signature(pending.commitment),
                "hashed": sorted(seat for seat, member in seats.items() if member in pending.hashes),
                "sealed": pending.frozen,
                "contributed": sorted(seat for seat, member in seats.items()
                                      if member in pending.contributions)}

    def commitment_signature(self, commitment: str) -> str | None:
        """The server's signature on a commitment shown in this room (made once per round)."""
        if self.signer is None:
            return None
        if self._signed[0] != commitment:
            message = signing.commitment_message(self.room_id, commitment)
            self._signed = (commitment, self.signer.sign(message))
        return self._signed[1]

    def restore_pending(self, data: Any) -> None:
        """The pending round as the room's row keeps it, when it keeps one (it is the truth)."""
        stored = Round.from_json(data)
        if stored is not None:
            self.pending, self.stored = stored, stored.commitment

    def unstored(self) -> dict[str, Any] | None:
        """The pending round to write with a commit, when the row does not hold it yet."""
        return None if self.stored == self.pending.commitment else self.pending.to_json()

    def shared(self) -> dict[str, Any]:
        """The pending round's public part for the room's other instances: its commitment and
        the member ids that contributed."""
        pending = self.pending
        return {"commitment": pending.commitment, "members": sorted(pending.contributions),
                "hashed": sorted(pending.hashes), "sealed": pending.frozen}

    def _check(self, commitment: str, value: str, what: Literal["hash", "bytes"]) -> None:
        if not fair.is_contribution(value):
            raise RoomError("bad_contribution", MALFORMED[what])
        if commitment != self.pending.commitment:
            raise RoomError("stale_commitment", "That commitment is no longer the next deal's; "
                            "contribute to the one in the latest room message.")

    def offer(self, member_id: int, commitment: str, digest: str) -> bool:
        """Phase one: a member's SHA-256 of the bytes it will send, before the round's hashes are
        sealed; ``False`` when it had already sent one (the first one counts)."""
        self._check(commitment, digest, "hash")
        if self.pending.frozen:
            raise RoomError("hashes_sealed", "This round's hashes are sealed; send yours for the next one.")
        if member_id in self.pending.hashes:
            return False
        self.pending.hashes[member_id] = digest
        return True

    def freeze(self) -> bool:
        """Seal the pending round's hashes (no more are taken; bytes are, for them); whether that changed."""
        if self.pending.frozen:
            return False
        self.pending.frozen = True
        return True

    def contribute(self, member_id: int, commitment: str, value: str) -> bool:
        """Phase two: a member's bytes, once the round's hashes are sealed and only for the hash
        it sent; ``False`` when they had already given them. Raises ``RoomError`` otherwise."""
        self._check(commitment, value, "bytes")
        pending = self.pending
        digest = pending.hashes.get(member_id)
        if digest is None:
            raise RoomError("no_hash", "Send the SHA-256 of your bytes first (while the round is open).")
        if not pending.frozen:
            raise RoomError("hashes_open", "Your bytes go once the round's hashes are sealed.")
        if hashlib.sha256(bytes.fromhex(value)).hexdigest() != digest:
            raise RoomError("hash_mismatch", "Those bytes are not the ones whose hash you sent.")
        if member_id in pending.contributions:
            return False
        pending.contributions[member_id] = value
        return True

    def waiting_for(self, members: Set[int]) -> Set[int]:
        """Of ``members`` (connected, seated), those the pending round still waits for: their hash
        while it is open, their bytes once sealed (those who sent a hash)."""
        pending = self.pending
        if not pending.frozen:
            return members - pending.hashes.keys()
        return (members & pending.hashes.keys()) - pending.contributions.keys()

    def seal(self, order: Sequence[int], game_no: int = 0) -> Sealed:
        """The deal's material from the pending round, ``order`` being the member ids in the deal's
        seat order; a fresh round then waits for the next deal."""
        sealed = self._take(order, game_no, None)
        self.current, self.loaded = sealed, True
        self.committed = None
        self._keys = {}
        self._early = (0, [])
        return sealed

    def seal_round(self, order: Sequence[int | None], game_no: int = 0, label: str | None = None) -> Sealed:
        """A later shuffle's round from the pending one (a game's next hand or deal, ``label`` its
        first shuffle), ``order`` being the member ids in the game's seat order (``None``: an empty
        seat); a fresh round then waits for the shuffle after it. The game's own material stays current."""
        return self._take(order, game_no, label)

    def _take(self, order: Sequence[int | None], game_no: int, label: str | None) -> Sealed:
        """The pending round sealed (and signed) with the contributions of ``order``'s members
        (``None``: an empty seat), and a fresh round in its place."""
        pending = self.pending
        given = tuple(pending.contributions.get(member) if member is not None else None for member in order)
        hashes = tuple(pending.hashes.get(member) if member is not None else None for member in order)
        self.pending = Round.fresh()
        signature = None
        if self.signer is not None:
            signature = self.signer.sign(signing.round_message(self.room_id, game_no, label,
                                                               pending.commitment, given, hashes))
        return Sealed(pending.server_seed, pending.nonce, pending.commitment, given,
                      fair.shuffle_seed(pending.server_seed, given), signature, hashes)

    @staticmethod
    def deal_event(sealed: Sealed) -> dict[str, Any]:
        """What the deal's public event adds: the commitment, the contributions by seat, the
        seats that sent none and the server's signature on the sealed round."""
        out: dict[str, Any] = {
            "commitment": sealed.commitment, "contributions": list(sealed.contributions),
            "withheld": [seat for seat, value in enumerate(sealed.contributions) if value is None]}
        if sealed.hashes:
            # A seat that sent a hash and never its bytes: withheld, and everyone sees it did.
            out["hashes"] = list(sealed.hashes)
            pairs = enumerate(zip(sealed.hashes, sealed.contributions, strict=True))
            out["unrevealed"] = [seat for seat, (digest, value) in pairs
                                 if digest is not None and value is None]
        if sealed.signature is not None:
            out["signature"] = sealed.signature
        return out

    def restore(self, deal_action: Mapping[str, Any] | None) -> None:
        """The current game's material from its deal entry's action (``None``: no game)."""
        self.current = Sealed.from_deal(deal_action) if deal_action is not None else None
        self.loaded = True
        self._keys = {}
        self._early = (0, [])

    def forget_current(self) -> None:
        """The room reloaded: the current game's material is read again when next needed."""
        self.current, self.loaded, self.committed = None, False, None
        self._keys = {}
        self._early = (0, [])

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
        start = self.open_upto
        listed = game.shuffles(after, start)
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
        # (app/rooms/sealing.py), so an opened round keys nothing more.
        for seed, material in opened_rounds.items():
            mine = [s for s in listed if _round_seed(s) == seed]
            if (seed is None and ended) or not all(s.open for s in mine):
                continue  # the game's own at its end: the reveal below
            labels = [s.label for s in mine]
            if seed is None:
                # The game's own seed keyed the first shuffles, which may be opened and skipped
                # already (Hold'em's button draw, open at once): their labels lead.
                labels = self._own_labels(game, after, start) + labels
            if material is None:
                material = sealed.to_action()
            rows.append(_public("round_reveal", {
                "game_no": game_no, "labels": labels, "commitment": material["commitment"],
                "server_seed": material["server_seed"], "nonce": material["nonce"]}))
        if ended:
            rows.append(_public("reveal", {"game_no": game_no, "server_seed": sealed.server_seed,
                                           "nonce": sealed.nonce, "commitment": sealed.commitment}))
        return rows

    def _own_labels(self, game: Game[Any, Any], state: Any, upto: int) -> list[str]:
        """The labels of the shuffles before ``upto`` (all open) keyed by the game's own seed,
        read on from where the last call left off (those shuffles never change)."""
        done, labels = self._early
        if upto < done:  # tracking put back after a failed commit: read again
            done, labels = 0, []
        if upto > done:
            labels = labels + [s.label for s in game.shuffles(state, done)[:upto - done] if s.round is None]
        self._early = (upto, labels)
        return list(labels)

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
            for extra in ("hashes", "signature"):
                if material.get(extra) is not None:
                    item["round"][extra] = material[extra]
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
        **({"hashes": list(sealed.hashes)} if sealed.hashes else {}),
        **({"signature": sealed.signature} if sealed.signature is not None else {}),
        "shuffles": shuffles,
        "dealt_view": game.view(dealt, seat),
        "events": events,
    }
    if over or None in revealed:  # the game's own seed: at its end, or once all it keyed is open
        record.update({"server_seed": sealed.server_seed, "nonce": sealed.nonce, "seed": sealed.seed})
    return record
