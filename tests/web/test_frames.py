"""Frames written straight to the transport (``app.web.frames``): one write per socket and loop
turn, frames in the order sent, a shared text encoded once, a close after the turn's frames, and
a client too slow to read closed; and the real server (``python -m app``, which serves every e2e
test this way) writing a player's ack and state together."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Generator
from typing import Any

import httpx
import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from app.config import Settings
from app.web import frames
from app.web.ws import CLOSE_POLICY, WRITE_BUFFER_LIMIT, Connection
from tests.e2e.client import make_room, seat_clients
from tests.support import ServerProcess


class FakeSocket:
    """What ``Connection`` reads of a WebSocket served by ``FrameProtocol``: its scope's offer."""

    def __init__(self, outbox: frames.Outbox) -> None:
        self.writes: list[bytes] = []
        self.open = True
        self.backlog = 0
        self.closes: list[tuple[int, str]] = []
        self.scope = {"extensions": {frames.EXTENSION: {
            "write": self.write, "buffered": lambda: self.backlog, "outbox": outbox}}}

    def write(self, data: bytes) -> bool:
        if not self.open:
            return False
        self.writes.append(data)
        return True

    async def close(self, code: int, reason: str) -> None:
        self.closes.append((code, reason))


def _texts(data: bytes) -> list[str]:
    """The text frames in ``data``, parsed as a client parses them (unmasked, from a server)."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    texts: list[str] = []
    while True:
        at_end: Generator[None, None, bool] = reader.at_eof()
        try:
            next(at_end)
        except StopIteration as end:
            if end.value:
                return texts
        parser = Frame.parse(reader.read_exact, mask=False)
        try:
            next(parser)
        except StopIteration as done:
            texts.append(bytes(done.value.data).decode())
        else:
            raise AssertionError("a partial frame")


def _connection(outbox: frames.Outbox) -> tuple[Connection, FakeSocket]:
    ws = FakeSocket(outbox)
    conn = Connection(ws, Settings())  # type: ignore[arg-type]
    return conn, ws


async def _turn() -> None:
    """Let the event loop finish the current turn (the outbox flushes at its end)."""
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def test_a_turns_frames_go_out_in_one_write_in_order() -> None:
    outbox = frames.Outbox()
    conn, ws = _connection(outbox)
    conn.send('{"type":"ack","id":"m1","version":3}')
    conn.send('{"type":"state","version":3}')
    conn.send('{"type":"room"}')
    assert ws.writes == []  # not before the turn ends
    await _turn()
    assert len(ws.writes) == 1
    assert _texts(ws.writes[0]) == ['{"type":"ack","id":"m1","version":3}', '{"type":"state","version":3}',
                                    '{"type":"room"}']
    conn.send("é ☃ 🂡")  # UTF-8, beyond the basic plane too
    await _turn()
    assert _texts(ws.writes[1]) == ["é ☃ 🂡"]


async def test_one_sockets_failure_keeps_no_other_sockets_frames_back() -> None:
    outbox = frames.Outbox()
    (broken, _), (fine, ws) = _connection(outbox), _connection(outbox)

    def fails(data: bytes) -> None:
        raise RuntimeError("the transport broke")

    broken.flush = fails  # type: ignore[method-assign]
    broken.send("lost")
    fine.send("delivered")
    await _turn()
    assert _texts(b"".join(ws.writes)) == ["delivered"]


async def test_a_text_sent_to_many_sockets_is_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    outbox = frames.Outbox()
    sockets = [_connection(outbox) for _ in range(5)]
    encoded: list[str] = []
    real = frames.encode

    def counting(text: str) -> bytes:
        encoded.append(text)
        return real(text)

    monkeypatch.setattr(frames, "encode", counting)
    shared = '{"type":"state","view":"spectator"}'
    for conn, _ in sockets:
        conn.send(shared)
    sockets[0][0].send('{"type":"state","view":"seat 0"}')
    await _turn()
    assert encoded == [shared, '{"type":"state","view":"seat 0"}']
    assert [_texts(b"".join(ws.writes)) for _, ws in sockets] == [
        [shared, '{"type":"state","view":"seat 0"}'], [shared], [shared], [shared], [shared]]
    # The next turn encodes afresh (nothing is kept between turns).
    sockets[1][0].send(shared)
    await _turn()
    assert encoded.count(shared) == 2


async def test_a_crowds_frames_go_out_a_chunk_a_turn_after_everyone_elses() -> None:
    """A room's spectators sharing one state are written a chunk a turn, after the sockets that got a
    frame of their own; a socket's frames keep their order whichever way they go."""
    outbox = frames.Outbox(crowd=3, chunk=2)
    player, player_ws = _connection(outbox)
    crowd = [_connection(outbox) for _ in range(5)]
    shared = '{"type":"state","view":"spectator"}'
    for conn, _ in crowd:
        conn.send(shared)
    player.send('{"type":"ack","id":"m1","version":3}')
    outbox.flush()  # the turn's end
    assert _texts(b"".join(player_ws.writes)) == ['{"type":"ack","id":"m1","version":3}']
    assert [len(ws.writes) for _, ws in crowd] == [0, 0, 0, 0, 0]
    # The last watcher gets a frame of its own (a chat answer, say) in the next turn: it is written
    # at that turn's end, the crowd's frame first; the others a chunk a turn, in the order queued.
    crowd[4][0].send('{"type":"error","code":"rate_limited"}')
    outbox.drain()
    assert [len(ws.writes) for _, ws in crowd] == [1, 1, 0, 0, 0]
    outbox.flush()
    assert _texts(b"".join(crowd[4][1].writes)) == [shared, '{"type":"error","code":"rate_limited"}']
    assert [len(ws.writes) for _, ws in crowd] == [1, 1, 0, 0, 1]
    await _turn()
    await _turn()
    assert [_texts(b"".join(ws.writes)) for _, ws in crowd[:4]] == [[shared]] * 4
    assert not outbox.later and not outbox.pending


async def test_a_crowd_sockets_close_follows_its_waiting_frames() -> None:
    outbox = frames.Outbox(crowd=2, chunk=1)
    crowd = [_connection(outbox) for _ in range(3)]
    for conn, _ in crowd:
        conn.send("shared")
    outbox.flush()
    conn, ws = crowd[2]
    conn.close(CLOSE_POLICY, "bad_token")
    assert _texts(b"".join(ws.writes)) == ["shared"]
    await _turn()
    await _turn()
    assert [len(ws.writes) for _, ws in crowd] == [1, 1, 1]


async def test_a_close_follows_the_frames_sent_before_it() -> None:
    outbox = frames.Outbox()
    conn, ws = _connection(outbox)
    writer = asyncio.create_task(conn.writer())
    conn.send('{"type":"error","code":"bad_token"}')
    conn.close(CLOSE_POLICY, "bad_token")
    conn.send('{"type":"state"}')  # after the close: never sent
    await asyncio.wait_for(writer, 10)
    await _turn()
    assert _texts(b"".join(ws.writes)) == ['{"type":"error","code":"bad_token"}']
    assert ws.closes == [(CLOSE_POLICY, "bad_token")]


async def test_a_socket_that_is_gone_takes_no_more_frames() -> None:
    outbox = frames.Outbox()
    conn, ws = _connection(outbox)
    writer = asyncio.create_task(conn.writer())
    ws.open = False
    conn.send("one")
    await _turn()
    assert conn.closed and ws.writes == []
    conn.send("two")
    await _turn()
    await asyncio.wait_for(writer, 10)  # the writer task ends too
    assert ws.writes == [] and ws.closes == []


async def test_a_client_too_slow_to_read_is_closed() -> None:
    outbox = frames.Outbox()
    conn, ws = _connection(outbox)
    writer = asyncio.create_task(conn.writer())
    conn.send("read me")
    await _turn()
    assert not conn.closed
    ws.backlog = WRITE_BUFFER_LIMIT + 1  # the client stopped reading: the transport holds it all
    conn.send("and me")
    await _turn()
    await asyncio.wait_for(writer, 10)
    assert conn.closed and ws.closes == [(CLOSE_POLICY, "too slow")]
    assert _texts(b"".join(ws.writes)) == ["read me", "and me"]


def test_without_the_offer_frames_go_through_asgi() -> None:
    class Plain:
        def __init__(self) -> None:
            self.scope: dict[str, Any] = {"extensions": {"websocket.http.response": {}}}

    conn = Connection(Plain(), Settings())  # type: ignore[arg-type]
    assert conn.outbox is None


def _counter(server: ServerProcess, name: str) -> float:
    text = httpx.get(f"{server.http}/metrics").text
    found = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
    assert found is not None, name
    return float(found.group(1))


async def test_the_server_writes_a_players_ack_and_state_together(server: ServerProcess) -> None:
    room, tokens = await make_room(server.http, 2)
    players, watchers = await seat_clients(server.ws, room, tokens, spectators=1)
    assert (await players[0].host("start"))["type"] == "ack"
    dealt = await players[0].wait_state(lambda s: s["view"] is not None)
    frames_before = _counter(server, "houserules_frames_total")
    writes_before = _counter(server, "houserules_frame_writes_total")
    seat = next(i for i, p in enumerate(players) if p.state is not None and p.state["legal"])
    state = players[seat].state
    assert state is not None
    assert (await players[seat].act(state["legal"][0]))["type"] == "ack"
    for client in (*players, *watchers):
        await client.wait_state(lambda s: s["version"] > dealt["version"])
    frames = _counter(server, "houserules_frames_total") - frames_before
    writes = _counter(server, "houserules_frame_writes_total") - writes_before
    # The mover's ack and state share a write; the other seat and the spectator get one each.
    assert frames >= 4 and writes <= frames - 1, (frames, writes)
    for client in (*players, *watchers):
        await client.close()


async def test_messages_that_arrive_together_are_read_in_order_past_the_inbox_limit(
        server: ServerProcess) -> None:
    """Three times ``INBOX_LIMIT`` pings in one TCP write: the app's own reader
    (``FrameProtocol.read``) pauses the socket's reading while its inbox is full and resumes it once
    it has read them, answering each in the order sent; a ping sent after them is answered too."""
    room, tokens = await make_room(server.http, 2)
    players, _ = await seat_clients(server.ws, room, tokens, spectators=0)
    player = players[0]
    ids = [f"p-{i}" for i in range(3 * frames.INBOX_LIMIT)]
    pings = [json.dumps({"type": "ping", "id": msg_id}).encode() for msg_id in ids]
    player.ws.transport.write(b"".join(Frame(Opcode.TEXT, ping).serialize(mask=True, extensions=[])
                                       for ping in pings))
    await player.expect("pong", id=ids[-1])
    await player.send({"type": "ping", "id": "after"})
    await player.expect("pong", id="after")
    assert [r.message["id"] for r in player.received if r.message["type"] == "pong"] == [*ids, "after"]
    for client in players:
        await client.close()
