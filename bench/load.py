"""Load: N rooms of scripted clients making random legal moves over real sockets.

    python bench/load.py --rooms 250 --clients 4 --duration 30 --spawn             # SQLite, own server
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test python bench/load.py --spawn ...
    python bench/load.py --url http://127.0.0.1:8000 ...                          # a running server

Prints moves/s (acknowledged, hence durable), the p50/p99 latency from send to ack and from send
to the last seat's update of that version, connected sockets and the server's RSS (from /metrics).
A finished game is followed by a rematch, so every room keeps playing for the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    games: int = 0


@dataclass
class RoomRun:
    room: str
    clients: int
    arrivals: dict[int, list[float]] = field(default_factory=dict)  # version -> each seat's receive time
    moves: list[tuple[int, float]] = field(default_factory=list)  # (acknowledged version, send time)

    def fanout(self) -> list[float]:
        """Send to the last seat's update, for every acknowledged move all seats heard of."""
        return [max(self.arrivals[v]) - sent for v, sent in self.moves
                if len(self.arrivals.get(v, ())) == self.clients]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def client(
    url: str,
    run: RoomRun,
    token: str,
    host: bool,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    ready: asyncio.Barrier,
    think: float = 0.0,
) -> None:
    async with websockets.connect(f"{url}/ws/{run.room}", max_size=2**20, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ready.wait()
        if host:
            await ws.send(json.dumps({"type": "host", "id": "start", "op": "start"}))
        counter = 0
        waiting: list[Any] | None = None  # [message id, send time]
        pending: set[asyncio.Task[None]] = set()
        recv = asyncio.ensure_future(ws.recv())
        halt = asyncio.ensure_future(stop.wait())
        while True:
            done, _ = await asyncio.wait({recv, halt}, return_when=asyncio.FIRST_COMPLETED)
            if halt in done:
                recv.cancel()
                for task in pending:
                    task.cancel()
                return
            message = json.loads(recv.result())
            recv = asyncio.ensure_future(ws.recv())
            now = time.perf_counter()
            kind = message["type"]
            if kind == "ack" and waiting is not None and message["id"] == waiting[0]:
                stats.acks.append(now - waiting[1])
                stats.moves += 1
                run.moves.append((message["version"], waiting[1]))
                waiting = None
            elif kind == "error" and waiting is not None and message.get("id") == waiting[0]:
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
                waiting = None
            elif kind == "state":
                version = message["version"]
                run.arrivals.setdefault(version, []).append(now)
                if message["outcome"] is not None and host:
                    stats.games += 1
                    counter += 1
                    await ws.send(json.dumps({"type": "host", "id": f"r{counter}", "op": "rematch"}))
                legal = message["legal"]
                if legal and waiting is None and not stop.is_set():
                    # Voluntary pick-ups make random games long: prefer any other move.
                    others = [a for a in legal if "pick" not in a.get("type", "")]
                    action = rng.choice(others or legal)
                    counter += 1
                    msg_id = f"m{counter}"
                    payload = json.dumps({"type": "action", "id": msg_id, "action": action})
                    if think:
                        # Without think time every seat always has a move ready: the latencies are
                        # then queueing at saturation. A think time offers a chosen load instead;
                        # the move is sent later while this loop goes on stamping what arrives.
                        waiting = [msg_id, 0.0]
                        task = asyncio.create_task(
                            send_later(ws, payload, waiting, think * rng.uniform(0.5, 1.5) / 1000))
                        pending.add(task)
                        task.add_done_callback(pending.discard)
                    else:
                        waiting = [msg_id, time.perf_counter()]
                        await ws.send(payload)


async def send_later(ws: Any, payload: str, waiting: list[Any], delay: float) -> None:
    await asyncio.sleep(delay)
    waiting[1] = time.perf_counter()
    await ws.send(payload)


async def watcher(url: str, room: str, stop: asyncio.Event, ready: asyncio.Barrier) -> None:
    """A spectator: says hello, then only reads."""
    async with websockets.connect(f"{url}/ws/{room}", max_size=2**20, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ready.wait()
        halt = asyncio.ensure_future(stop.wait())
        while True:
            recv = asyncio.ensure_future(ws.recv())
            done, _ = await asyncio.wait({recv, halt}, return_when=asyncio.FIRST_COMPLETED)
            if halt in done:
                recv.cancel()
                return


def metric(text: str, name: str) -> float | None:
    match = re.search(rf"^{re.escape(name)}(?:\{{[^}}]*\}})? ([0-9.e+]+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else None


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--preset", default=None)
    parser.add_argument("--think", type=float, default=0.0, help="ms a player waits before each move")
    parser.add_argument("--watchers", type=int, default=0, help="extra spectator sockets over the rooms")
    parser.add_argument("--game", default="palace")
    parser.add_argument(
        "--spawn", action="store_true", help="start `python -m app` on a free port (temp data dir)"
    )
    args = parser.parse_args()

    server: subprocess.Popen[bytes] | None = None
    url = args.url
    if args.spawn:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        data = tempfile.mkdtemp(prefix="houserules-bench-")
        env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "HOUSERULES_DATA_DIR": data,
            "PYTHONPATH": str(ROOT),
            "HOUSERULES_WS_RATE": "1000",
            "HOUSERULES_WS_BURST": "1000",
        }
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=data, env=env)
        url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient() as http:
            for _ in range(300):
                try:
                    if (await http.get(url + "/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
    try:
        await run(args, url)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


async def run(args: argparse.Namespace, url: str) -> None:
    ws_url = url.replace("http://", "ws://").replace("https://", "wss://")
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(7)
    runs: list[tuple[RoomRun, list[str]]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        body: dict[str, Any] = {"game": args.game, "name": "p0", "seats": args.clients}
        if args.preset:
            body["preset"] = args.preset
        for _ in range(args.rooms):
            made = (await http.post("/api/rooms", json=body)).json()
            tokens = [made["token"]]
            for i in range(1, args.clients):
                tokens.append(
                    (await http.post(f"/api/rooms/{made['room']}/join", json={"name": f"p{i}"})).json()[
                        "token"
                    ]
                )
            runs.append((RoomRun(made["room"], args.clients), tokens))
        ready = asyncio.Barrier(args.rooms * args.clients + args.watchers + 1)
        tasks = [
            asyncio.create_task(
                client(ws_url, room, token, i == 0, stats, stop, random.Random(rng.random()), ready,
                       args.think)
            )
            for room, tokens in runs
            for i, token in enumerate(tokens)
        ]
        tasks += [
            asyncio.create_task(watcher(ws_url, runs[i % len(runs)][0].room, stop, ready))
            for i in range(args.watchers)
        ]
        await ready.wait()
        started = time.perf_counter()
        cpu_client = time.process_time()
        cpu_server = metric((await http.get("/metrics")).text, "process_cpu_seconds_total")
        await asyncio.sleep(args.duration / 2)
        scraped = (await http.get("/metrics")).text
        await asyncio.sleep(args.duration / 2)
        elapsed = time.perf_counter() - started
        cpu_client = time.process_time() - cpu_client
        cpu_after = metric((await http.get("/metrics")).text, "process_cpu_seconds_total")
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    for room, _ in runs:
        stats.fanout.extend(room.fanout())
    sockets = metric(scraped, "houserules_sockets")
    rss = metric(scraped, "process_resident_memory_bytes")
    ms = {name: [percentile(values, q) * 1000 for q in (0.5, 0.99)]
          for name, values in (("ack", stats.acks), ("fan", stats.fanout))}
    print(f"rooms {args.rooms} x {args.clients} clients, {elapsed:.1f} s")
    print(f"moves/s {stats.moves / elapsed:.1f} (acknowledged {stats.moves}, games finished {stats.games})")
    print(f"ack     p50 {ms['ack'][0]:.1f} ms  p99 {ms['ack'][1]:.1f} ms (send to ack)")
    print(f"fan-out p50 {ms['fan'][0]:.1f} ms  p99 {ms['fan'][1]:.1f} ms (send to the last seat's update)")
    if sockets is not None and rss is not None:
        print(f"sockets {sockets:.0f}  server RSS {rss / 2**20:.0f} MiB")
    if cpu_server is not None and cpu_after is not None:
        per_move = (cpu_after - cpu_server) / max(1, stats.moves) * 1000
        print(f"cpu     server {(cpu_after - cpu_server) / elapsed * 100:.0f}% of a core "
              f"({per_move:.2f} ms per move, fan-out included), "
              f"load clients {cpu_client / elapsed * 100:.0f}%")
    if stats.errors:
        print("refused: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())))
    if stats.acks:
        print(f"ack mean {statistics.fmean(stats.acks) * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
