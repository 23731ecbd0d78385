"""Abuse: an honest room's moves and the server's memory while a stranger attacks it.

    .venv/bin/python bench/abuse.py                          # every attack, 60 s each, SQLite, direct
    .venv/bin/python bench/abuse.py --seconds 15 --attacks ping125,hellos
    .venv/bin/python bench/abuse.py --nginx                  # the same behind deploy/nginx-scale.conf
    .venv/bin/python bench/abuse.py --postgres postgresql+asyncpg://postgres@127.0.0.1:5432/test
    .venv/bin/python bench/abuse.py --table-cache /tmp/abuse-table.sqlite3 --runs 3
    taskset -c 1 .venv/bin/python bench/abuse.py --attacker-cpus 0   # the attacker on a core apart

For each attack (and once with none) a fresh server is started as the README says (``python -m
app`` from this checkout's interpreter, its settings at their defaults, SQLite in a temporary data
directory or a fresh PostgreSQL database, a free port, the file limit at ``--server-files``, 1,024
by default as on most Linux logins); with ``--nginx`` nginx runs in front of it with the shipped
``deploy/nginx-scale.conf`` (its upstream the server, the nginx image's own 1,024 connections per
worker). Then one honest 2-seat Palace room is created through the API and its two players move
continuously over WebSockets (a move ``--think`` ms after it is their turn, rematches included),
and after a short warm-up the attack runs for ``--seconds`` from a process of its own
(``bench/abuse_attacks.py``, raw asyncio sockets):

- ``ping125``, ``ping0``, ``continuation``: one socket, no room link (an upgrade on a room id that
  does not exist, no hello), that never reads and writes 125-byte pings, empty pings, or empty
  continuation frames of a text message left open, as fast as the connection drains, until the time
  is up or the server closes it;
- ``slowloris``: 1,000 HTTP requests for a room page whose headers come a byte a second and never
  end (a socket the server closes is opened again);
- ``readers``: 50 spectators of the honest room that say hello and never read (4 KiB receive buffer);
- ``replays``: 60 replay pages a minute of a 9-seat Hold'em table's game with ``--table-entries``
  (8,000) log entries, each request on its own schedule, the pages in turn; the table is built
  first on a server of its own by bots at zero delay (``--table-cache`` keeps it between runs);
- ``hellos``: 55 spectators a second: upgrade, hello, the first frame back, close.

Measured, for each run: the honest moves waiting at some time during the attack (sent before its
end, answered after its start), from send to ack, p50/p99/max (a move still unanswered ``--settle``
s after the attack counts with the time it waited so far, and is counted apart: ``unans``); the
moves acknowledged; the server's RSS from ``/proc/PID/status``, sampled every 0.25 s (just before
the attack, its maximum, and ``--settle`` s after the attack); a newcomer opening the honest room's
page (``GET /r/{room}`` on a new connection, one a second: p99, failures); lines the server logged
at ERROR; the CPU seconds the server used during the attack (``/proc/PID/stat``). One JSON line
per run (with the attacker's own report: bytes sent, connections, closes, its answers and their
times; ``houserules_sockets`` before and during the attack); at the end a table of the medians over
``--runs``, beside the 1-minute load average at each run's start. Every run has a deadline
(``--seconds`` + 190 s) and stops its processes; so does Ctrl-C.

Before the fixes: 2026-12-01, the code of 8e9d984, default settings, a 1,024-file limit; this
shared 2-core machine with other work on it (``load``: its 1-minute load average at each run's
start, 0.3 to 13); one line per run (a second line without a label: the next round). ``moves``: the
honest moves acknowledged, about 580 a minute without an attack (``--think 100``); ``page``: the
newcomer's page, failed = no answer within 30 s.

direct, SQLite, 60 s                p50 ms   p99 ms   max ms moves  RSS MiB b/max/a  page p99 (fail)  load
no attack                              2.8      107      190   539       95/103/103          111 (0)  13.3
                                       2.4     21.0      196   570       95/103/103           43 (0)  1.3
1 socket, 125-byte pings               3.8      137   11,080   368       95/366/161        5,692 (0)  8.5
                                       2.2      6.3    5,253   424       95/691/654        1,788 (0)  3.0
1 socket, empty pings                  3.5   53,295   53,295    55       95/128/121      29,342 (23)  7.5
                                       2.3      9.2   43,828   159       95/136/129      29,933 (13)  1.2
1 socket, empty continuations       56,177   56,177   56,177     2       95/159/158      29,558 (26)  10.4
                                       2.5      7.9   36,777   163       95/233/232       29,968 (2)  0.7
1,000 slowloris connections            3.8      278      398   483       95/109/109          201 (0)  12.4
                                       2.6      7.0     10.0   580       95/109/109           51 (0)  0.5
50 never-reading spectators            3.1     67.5      364   537       95/105/105          407 (0)  9.1
                                       2.7     13.0     18.0   584       95/105/105           60 (0)  0.2
60 replays/min, 8,000-entry table      2.5      119      181   545      100/132/132           59 (0)  5.2
                                       2.5      122      168   530      100/132/132           51 (0)  0.1
55 spectator hellos/s                  2.2     31.0     94.0   589       95/109/109           87 (0)  3.2
                                       2.6      9.2     27.7   588       95/110/110           43 (0)  0.2

behind nginx, SQLite, 60 s          p50 ms   p99 ms   max ms moves  RSS MiB b/max/a  page p99 (fail)  load
no attack                              2.4     19.1     36.1   580       95/103/103           40 (0)  1.4
                                       2.9      6.5     22.4   579       95/103/103           48 (0)  0.2
1 socket, 125-byte pings               2.8      178    7,450   392       95/542/452        3,363 (0)  1.2
                                       2.6     12.6    5,397   432       95/648/626        1,618 (0)  0.1
1 socket, empty pings                  2.9     78.7   48,371   106       95/129/120      29,423 (18)  2.8
                                       3.0     11.8   45,046   145       95/133/125      29,150 (15)  0.1
1 socket, empty continuations          5.4     47.9   35,412   223       95/234/234       29,488 (0)  2.4
                                       5.5     16.4   39,030   192       95/214/213       29,155 (8)  0.4
1,000 slowloris connections            2.9     52.7      340   552       95/103/103           75 (0)  2.5
                                       2.9      5.9      8.8   576       95/103/103           49 (0)  0.8
50 never-reading spectators            2.6      6.0      7.9   586       95/105/105           42 (0)  3.6
                                       3.0     15.0     52.5   571       95/105/105           51 (0)  0.2
60 replays/min, 8,000-entry table      2.4      118      148   540      100/132/132           47 (0)  1.0
                                       2.9      136      187   533      100/132/132           79 (0)  0.1
55 spectator hellos/s                  2.2      7.5     35.8   596       95/109/109           61 (0)  0.3
                                       2.4      7.2     12.8   595       95/110/110           41 (0)  0.0

direct, PostgreSQL, 15 s            p50 ms   p99 ms   max ms moves  RSS MiB b/max/a  page p99 (fail)  load
no attack                              5.1     99.2      204   126       96/103/103          233 (0)  9.4
1 socket, 125-byte pings             2,015    6,615    6,615     6       96/325/230        7,353 (0)  8.2
1 socket, empty pings               15,924   15,924   15,924     1       96/116/112       16,025 (0)  8.5
1 socket, empty continuations            -        -        -     0       96/126/124       26,943 (0)  11.4
1,000 slowloris connections            9.2      222      512   116       96/108/108          238 (0)  12.2
50 never-reading spectators            9.6      169      191   141       96/105/105          112 (0)  13.0
60 replays/min, 8,000-entry table     54.6      884      884    61       96/140/140          529 (0)  11.1
55 spectator hellos/s                 59.6    2,254    2,254    62       96/114/114          933 (0)  12.0

What the figures say (before the fixes). The p99 hides a stall of a few moves (a stalled player
sends nothing more): read ``max ms`` and ``moves`` beside it.
- One socket flooding 125-byte pings stalls every honest move at once (5-11 s) and takes RSS from
  95 to 366-691 MiB, most of it held after the socket has gone (161-654 MiB); then the attacker's
  writes wait (290-640 MB sent in 60 s, about as much as in 15 s) and the moves go on.
- Empty pings and empty continuations cost less memory (+30 to +140 MiB) but stall the moves
  longer: 35-56 s in every run (55-223 moves in the minute against about 580), and 2 to 26 of the
  60 newcomers' pages got no answer within 30 s. The server closed the continuation socket after
  37-56 s in two of the direct runs; behind nginx, nginx took 57-68 GB of continuations a minute
  while the server held 214-234 MiB.
- 1,000 slowloris connections fit under the 1,024-file limit beside the server's own 17 files
  (no newcomer failed); 1,010 made 14 of 16 newcomers' pages fail (a 15 s run).
- The 50 never-reading spectators were all closed by the server within the minute
  (``houserules_sockets`` back to 2 at 54 s); RSS +10 MiB, held.
- A replay page of the 8,000-entry table took 170-200 ms (p50) on a quiet machine, 630 ms on a
  busy one; 60 a minute moved the honest p99 to 118-135 ms (no attack: 6.5-21 ms on a quiet
  machine); RSS +32 MiB, held.
- 55 hellos/s: little here (p99 7-31 ms direct and behind nginx; 2.3 s on PostgreSQL at load 12).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import orjson
import uvloop
import websockets

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from load import free_port, percentile  # noqa: E402

ATTACKS = ("none", "ping125", "ping0", "continuation", "slowloris", "readers", "replays", "hellos")
LABELS = {
    "none": "no attack",
    "ping125": "1 socket, 125-byte pings",
    "ping0": "1 socket, empty pings",
    "continuation": "1 socket, empty continuations",
    "slowloris": "{slow} slowloris connections",
    "readers": "{readers} never-reading spectators",
    "replays": "{replays} replays/min, {entries}-entry table",
    "hellos": "{hellos} spectator hellos/s",
}
NO_ROOM = "no-such-room-abuse"
TABLE_DATABASE = "houserules_abuse_table"


# -- processes -----------------------------------------------------------------------------------


def server_env(port: int, data: Path, database: str | None,
               extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a server started as the README says: every HOUSERULES_ setting at its
    default (none inherited from this shell), only where it listens and stores."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOUSERULES_") and k != "DATABASE_URL"}
    env.update({"HOST": "127.0.0.1", "PORT": str(port), "HOUSERULES_DATA_DIR": str(data)})
    if database is not None:
        env["DATABASE_URL"] = database
    env.update(extra or {})
    return env


def spawn_server(port: int, data: Path, database: str | None, files: int,
                 extra: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    def limit_files() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(files, hard), hard))

    log = open(data / "server.log", "wb")  # noqa: SIM115 (the child holds it; closed with the run)
    try:
        return subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                env=server_env(port, data, database, extra), preexec_fn=limit_files)
    finally:
        log.close()


def spawn_nginx(upstream_port: int, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """nginx in the foreground with the shipped site config, its upstream the one server; the main
    config as in the nginx image (worker processes auto, 1,024 connections each)."""
    port = free_port()
    site = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    # The replica line names compose's service, re-resolved; here the one server, by address.
    for shipped in ("server app:8000 resolve;", "listen 8000;"):
        if shipped not in site:
            raise SystemExit(f"deploy/nginx-scale.conf no longer says {shipped!r}: update spawn_nginx")
    site = site.replace("server app:8000 resolve;", f"server 127.0.0.1:{upstream_port};")
    site = site.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\nworker_processes auto;\n"
        "events { worker_connections 1024; }\n"
        f"http {{ access_log off; client_body_temp_path {folder / 'body'}; {temp}\n"
        f"include {folder / 'site.conf'}; }}\n")
    command = ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, port


def stop(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM, wait: float = 15.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) a process has used so far, from ``/proc/PID/stat``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_healthy(url: str, process: subprocess.Popen[bytes], limit: float = 90.0) -> None:
    async with httpx.AsyncClient(timeout=5) as http:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with code {process.returncode} before it was ready")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(url + "/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} was not ready within {limit:.0f} s")


class Databases:
    """Fresh PostgreSQL databases, one a run (from the table's template for the replays), on the
    server the ``--postgres`` URL names."""

    def __init__(self, url: str) -> None:
        self.url = url
        parts = urlsplit(url)
        self.admin = urlunsplit(("postgresql", parts.netloc, parts.path, parts.query, ""))

    def named(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))

    async def execute(self, sql: str) -> None:
        import asyncpg  # type: ignore[import-untyped]

        connection = await asyncpg.connect(self.admin)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    async def exists(self, name: str) -> bool:
        import asyncpg

        connection = await asyncpg.connect(self.admin)
        try:
            return bool(await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name))
        finally:
            await connection.close()

    async def create(self, name: str, template: str | None = None) -> str:
        await self.drop(name)
        await self.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return self.named(name)

    async def drop(self, name: str) -> None:
        await self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- the honest room -----------------------------------------------------------------------------


@dataclass
class Move:
    id: str
    payload: str
    sent: float | None = None
    answered: float | None = None
    acked: bool = False


@dataclass
class Honest:
    moves: list[Move] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    games: int = 0


class Player:
    """One honest seat: moves ``think`` ms (±50 %) after its turn comes, and after a dropped socket
    connects again and sends its unanswered move again with the same id."""

    def __init__(self, url: str, token: str, host: bool, think: float, rng: random.Random, log: Honest,
                 prefix: str) -> None:
        self.url, self.token, self.host, self.think, self.rng, self.log = url, token, host, think, rng, log
        self.prefix = prefix
        self.counter = 0
        self.pending: Move | None = None
        self.due: float | None = None
        self.version: int | None = None
        self.started = False

    async def run(self, stopping: asyncio.Event) -> None:
        while not stopping.is_set():
            try:
                async with websockets.connect(self.url, max_size=2**22, compression=None, open_timeout=30,
                                              ping_interval=None, close_timeout=1) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token,
                                              "last_version": self.version}))
                    if self.host and not self.started:
                        await ws.send(json.dumps({"type": "host", "id": f"{self.prefix}start",
                                                  "op": "start"}))
                    self.started = True
                    if self.pending is not None and self.pending.sent is not None:
                        await ws.send(self.pending.payload)
                    await self.play(ws, stopping)
            except Exception:
                if stopping.is_set():
                    return
                self.log.reconnects += 1
                await asyncio.sleep(0.2)

    def choose(self, legal: list[dict[str, Any]]) -> None:
        # Voluntary pick-ups make random games long: any other move first (as bench/load.py).
        others = [a for a in legal if "pick" not in a.get("type", "")]
        self.counter += 1
        move_id = f"{self.prefix}m{self.counter}"
        action = self.rng.choice(others or legal)
        self.pending = Move(move_id, json.dumps({"type": "action", "id": move_id, "action": action}))
        self.due = time.perf_counter() + self.think * self.rng.uniform(0.5, 1.5) / 1000

    async def play(self, ws: Any, stopping: asyncio.Event) -> None:
        recv = asyncio.ensure_future(ws.recv())
        halt = asyncio.ensure_future(stopping.wait())
        try:
            while True:
                timeout = None if self.due is None else max(0.0, self.due - time.perf_counter())
                done, _ = await asyncio.wait({recv, halt}, timeout=timeout,
                                             return_when=asyncio.FIRST_COMPLETED)
                if halt in done:
                    return
                now = time.perf_counter()
                if self.due is not None and now >= self.due and self.pending is not None:
                    self.due = None
                    self.pending.sent = now
                    self.log.moves.append(self.pending)
                    await ws.send(self.pending.payload)
                if recv not in done:
                    continue
                message = orjson.loads(recv.result())
                recv = asyncio.ensure_future(ws.recv())
                kind = message["type"]
                pending = self.pending
                if kind == "ack" and pending is not None and message.get("id") == pending.id:
                    pending.answered, pending.acked, self.pending = now, True, None
                elif kind == "error" and pending is not None and message.get("id") == pending.id:
                    code = message.get("code", "?")
                    self.log.refused[code] = self.log.refused.get(code, 0) + 1
                    pending.answered, self.pending = now, None
                elif kind == "state":
                    self.version = message["version"]
                    if message.get("outcome") is not None and self.host:
                        self.log.games += 1
                        self.counter += 1
                        await ws.send(json.dumps({"type": "host", "id": f"{self.prefix}r{self.counter}",
                                                  "op": "rematch"}))
                    legal = message.get("legal") or []
                    if legal and self.pending is None:
                        self.choose(legal)
        finally:
            recv.cancel()
            halt.cancel()


async def open_room(http: httpx.AsyncClient, body: dict[str, Any], others: int) -> tuple[str, list[str]]:
    made = (await http.post("/api/rooms", json=body)).raise_for_status().json()
    tokens = [made["token"]]
    for index in range(others):
        joined = await http.post(f"/api/rooms/{made['room']}/join", json={"name": f"p{index + 1}"})
        tokens.append(joined.raise_for_status().json()["token"])
    return made["room"], tokens


# -- the replayed table --------------------------------------------------------------------------


@dataclass
class Table:
    room: str
    entries: int
    sqlite: Path | None = None  # the built SQLite file (copied into each replay run's data directory)
    database: str | None = None  # the PostgreSQL template database


async def build_table(args: argparse.Namespace, databases: Databases | None, work: Path) -> Table:
    """A 9-seat Hold'em cash table, a host and eight bots at zero delay, played until its log holds
    ``--table-entries`` entries: the host leaves its socket at once and a bot stands in for it
    (``bot_takeover_seconds``), while one spectator keeps the room's bots going."""
    meta = Path(str(args.table_cache) + ".json") if args.table_cache else None
    if meta is not None and meta.exists():
        cached = json.loads(meta.read_text())
        if databases is None:
            ready = Path(args.table_cache).exists()
        else:
            ready = cached.get("database") == TABLE_DATABASE and await databases.exists(TABLE_DATABASE)
        if ready and cached["entries"] >= args.table_entries:
            print(f"table: cached, {cached['entries']} entries (room {cached['room']})", flush=True)
            return Table(cached["room"], cached["entries"], None if databases else Path(args.table_cache),
                         TABLE_DATABASE if databases else None)
    data = work / "table"
    data.mkdir()
    database = await databases.create(TABLE_DATABASE) if databases is not None else None
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = spawn_server(port, data, database, 65536, {
        "HOUSERULES_BOT_DELAY_MIN": "0", "HOUSERULES_BOT_DELAY_MAX": "0", "HOUSERULES_LOG_LEVEL": "warning"})
    started = time.perf_counter()
    version = 0
    try:
        await wait_healthy(url, server)
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            room, tokens = await open_room(http, {
                "game": "holdem", "seats": 9, "name": "host", "preset": "cash-nl-1-2",
                "options": {"bot_takeover_seconds": 1}}, 0)
        ws_url = f"ws://127.0.0.1:{port}/ws/{room}"
        async with websockets.connect(ws_url, compression=None, max_size=2**22) as host:
            await host.send(json.dumps({"type": "hello", "token": tokens[0]}))
            for seat in range(1, 9):
                await host.send(json.dumps({"type": "host", "id": f"bot{seat}", "op": "add_bot",
                                            "seat": seat}))
            async with asyncio.timeout(60):
                while True:  # the last bot fills the table and the game starts
                    message = orjson.loads(await host.recv())
                    if message["type"] == "state" and message.get("game_no"):
                        break
        async with websockets.connect(ws_url, compression=None, max_size=2**22) as watcher:
            await watcher.send(json.dumps({"type": "hello"}))
            shown = time.perf_counter()
            async with asyncio.timeout(args.table_timeout):
                while version < args.table_entries:
                    message = orjson.loads(await watcher.recv())
                    if message["type"] == "state":
                        version = message["version"]
                    if time.perf_counter() - shown > 10:
                        shown = time.perf_counter()
                        print(f"table: {version} entries after {shown - started:.0f} s", flush=True)
    finally:
        stop(server)
    took = time.perf_counter() - started
    print(f"table: {version} entries built in {took:.0f} s (room {room})", flush=True)
    table = Table(room, version)
    if databases is not None:
        table.database = TABLE_DATABASE
    else:
        target = Path(args.table_cache) if args.table_cache else work / "table.sqlite3"
        shutil.copyfile(data / "houserules.sqlite3", target)
        table.sqlite = target
    if meta is not None:
        meta.write_text(json.dumps({"room": room, "entries": version, "database": table.database}))
    return table


# -- one run -------------------------------------------------------------------------------------


@dataclass
class Sampler:
    pid: int
    samples: list[tuple[float, float]] = field(default_factory=list)

    async def run(self) -> None:
        while True:
            value = rss_mib(self.pid)
            if value is not None:
                self.samples.append((time.perf_counter(), value))
            await asyncio.sleep(0.25)

    def peak(self, since: float) -> float | None:
        values = [value for at, value in self.samples if at >= since]
        return max(values) if values else None


@dataclass
class Probe:
    """A newcomer opening the honest room's page (``GET /r/{room}``) on a new connection every second."""

    host: str
    port: int
    path: str
    times: list[tuple[float, float | None]] = field(default_factory=list)  # (sent, seconds or None: failed)

    async def once(self) -> None:
        sent = time.perf_counter()
        try:
            async with asyncio.timeout(30):
                reader, writer = await asyncio.open_connection(self.host, self.port)
                try:
                    writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                                 "Connection: close\r\n\r\n".encode())
                    answer = await reader.read()
                finally:
                    writer.transport.abort()
            ok = answer.startswith(b"HTTP/1.1 200")
            self.times.append((sent, time.perf_counter() - sent if ok else None))
        except (OSError, TimeoutError):
            self.times.append((sent, None))

    async def run(self) -> None:
        tasks: set[asyncio.Task[None]] = set()
        try:
            while True:
                task = asyncio.create_task(self.once())
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                await asyncio.sleep(1.0)
        finally:
            for task in tasks:
                task.cancel()


async def scrape(url: str, name: str) -> float | None:
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            text = (await http.get(url + "/metrics")).text
    except httpx.HTTPError:
        return None
    match = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else None


async def scrape_later(url: str, name: str, delay: float) -> float | None:
    await asyncio.sleep(delay)
    return await scrape(url, name)


def label(args: argparse.Namespace, kind: str) -> str:
    return LABELS[kind].format(slow=f"{args.slowloris:,}", readers=args.readers, replays=f"{args.replays:g}",
                               entries=f"{args.table_entries:,}", hellos=f"{args.hellos:g}")


def ms(value: float | None) -> float | None:
    return None if value is None or value != value else round(value * 1000, 1)


async def run_attack(args: argparse.Namespace, kind: str, host: str, port: int, room: str) -> dict[str, Any]:
    """The attack in a process of its own; its report (the JSON line it prints)."""
    command = [sys.executable, str(BENCH / "abuse_attacks.py"), kind, "--host", host, "--port", str(port),
               "--room", room, "--seconds", str(args.seconds)]
    if kind == "slowloris":
        command += ["--connections", str(args.slowloris)]
    elif kind == "readers":
        command += ["--connections", str(args.readers)]
    elif kind == "replays":
        command += ["--rate", str(args.replays)]
    elif kind == "hellos":
        command += ["--rate", str(args.hellos)]
    niceness = args.attacker_nice
    cpus = {int(cpu) for cpu in args.attacker_cpus.split(",")} if args.attacker_cpus else None

    def lower_priority() -> None:
        if niceness is not None:
            os.setpriority(os.PRIO_PROCESS, 0, niceness)
        if cpus is not None:
            os.sched_setaffinity(0, cpus)

    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                   preexec_fn=lower_priority)
    try:
        out, _ = await asyncio.wait_for(process.communicate(), args.seconds + 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lines = out.decode().strip().splitlines()
    report: dict[str, Any] = json.loads(lines[-1]) if lines else {"failed": process.returncode}
    latencies = report.pop("latencies_ms", [])
    if latencies:
        report["p50_ms"] = round(statistics.median(latencies), 1)
        report["max_ms"] = max(latencies)
    return report


async def one_run(args: argparse.Namespace, kind: str, table: Table | None, databases: Databases | None,
                  work: Path, number: int) -> dict[str, Any]:
    data = work / f"run{number}-{kind}"
    data.mkdir()
    result: dict[str, Any] = {"attack": kind, "label": label(args, kind), "nginx": args.nginx,
                              "database": "postgresql" if databases else "sqlite", "seconds": args.seconds,
                              "load_before": [round(x, 2) for x in os.getloadavg()]}
    database = None
    db_name = f"houserules_abuse_{os.getpid()}_{number}"
    if kind == "replays" and table is not None:
        if table.sqlite is not None:
            shutil.copyfile(table.sqlite, data / "houserules.sqlite3")
        elif databases is not None:
            database = await databases.create(db_name, table.database)
    if databases is not None and database is None:
        database = await databases.create(db_name)
    server_port = free_port()
    server = spawn_server(server_port, data, database, args.server_files)
    nginx: subprocess.Popen[bytes] | None = None
    tasks: list[asyncio.Task[Any]] = []
    stopping = asyncio.Event()
    try:
        await wait_healthy(f"http://127.0.0.1:{server_port}", server)
        port = server_port
        if args.nginx:
            nginx, port = spawn_nginx(server_port, data / "nginx")
            await wait_healthy(f"http://127.0.0.1:{port}", nginx)
        url = f"http://127.0.0.1:{port}"
        sampler = Sampler(server.pid)
        honest = Honest()
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            room, tokens = await open_room(http, {"game": "palace", "seats": 2, "name": "p0"}, 1)
        probe = Probe("127.0.0.1", port, f"/r/{room}")
        rng = random.Random(number)
        players = [Player(f"ws://127.0.0.1:{port}/ws/{room}", token, index == 0, args.think,
                          random.Random(rng.random()), honest, f"s{index}")
                   for index, token in enumerate(tokens)]
        tasks = [asyncio.create_task(player.run(stopping)) for player in players]
        tasks.append(asyncio.create_task(sampler.run()))
        await asyncio.sleep(args.warmup)
        sockets_before = await scrape(url, "houserules_sockets")
        start = time.perf_counter()
        result["rss_before_mib"] = rss_mib(server.pid)
        cpu_before = cpu_seconds(server.pid)
        tasks.append(asyncio.create_task(probe.run()))
        during = asyncio.create_task(scrape_later(url, "houserules_sockets", args.seconds * 0.9))
        if kind == "none":
            await asyncio.sleep(args.seconds)
        else:
            target = table.room if kind == "replays" and table is not None else (
                room if kind in ("readers", "hellos", "slowloris") else NO_ROOM)
            result["attacker"] = await run_attack(args, kind, "127.0.0.1", port, target)
        result["sockets_during"] = await during
        end = time.perf_counter()
        cpu_after = cpu_seconds(server.pid)
        if cpu_before is not None and cpu_after is not None:
            result["server_cpu_s"] = round(cpu_after - cpu_before, 2)
        await asyncio.sleep(args.settle)
        settled = time.perf_counter()
        result["rss_after_mib"] = rss_mib(server.pid)
        result["rss_max_mib"] = sampler.peak(start)
        result["sockets_before"] = sockets_before
        result["sockets_after"] = await scrape(url, "houserules_sockets")
        if nginx is not None:
            result["nginx_rss_mib"] = nginx_rss(nginx.pid)
        # The honest moves waiting at some time during the attack (sent before its end and answered
        # after its start); unanswered ones count with their wait so far.
        window = [move for move in honest.moves if move.sent is not None and move.sent <= end
                  and (move.answered is None or move.answered >= start)]
        waits = [(move.answered if move.answered is not None else settled) - (move.sent or 0.0)
                 for move in window]
        result.update({
            "moves": sum(1 for move in window if move.acked),
            "unanswered": sum(1 for move in window if move.answered is None),
            "p50_ms": ms(percentile(waits, 0.5)), "p99_ms": ms(percentile(waits, 0.99)),
            "max_ms": ms(max(waits)) if waits else None,
            "refused": honest.refused, "reconnects": honest.reconnects,
        })
        probes = [(sent, took) for sent, took in probe.times if start <= sent <= end]
        answered = [took for _, took in probes if took is not None]
        result["newcomer"] = {"sent": len(probes), "failed": len(probes) - len(answered),
                             "p99_ms": ms(percentile(answered, 0.99)) if answered else None,
                             "max_ms": ms(max(answered)) if answered else None}
    finally:
        stopping.set()
        if tasks:
            _, stuck = await asyncio.wait(tasks, timeout=5)
            for task in stuck:
                task.cancel()
            await asyncio.gather(*stuck, return_exceptions=True)
        stop(nginx)  # SIGTERM: a fast shutdown, the workers with it
        stop(server)
        log = (data / "server.log").read_text(errors="replace")
        result["server_errors"] = sum(1 for line in log.splitlines() if line.startswith("ERROR"))
        result["tracebacks"] = log.count("Traceback (most recent call last)")
        if databases is not None:
            with contextlib.suppress(Exception):
                await databases.drop(db_name)
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    return result


def nginx_rss(master: int) -> float | None:
    """The nginx master's and workers' RSS together."""
    total = rss_mib(master)
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return total
    for child in children:
        total = (total or 0.0) + (rss_mib(int(child)) or 0.0)
    return round(total, 1) if total is not None else None


# -- the report ----------------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


HEADER = (f"{'attack':<38} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'moves':>6} {'unans':>5} "
          f"{'RSS before/max/after MiB':>25} {'newcomer p99 ms (fail)':>21} {'errors':>6} {'CPU s':>6}  load")


def line(result: dict[str, Any]) -> str:
    rss = "/".join(fmt(result.get(k)) for k in ("rss_before_mib", "rss_max_mib", "rss_after_mib"))
    health = result.get("newcomer") or {}
    probe = f"{fmt(health.get('p99_ms'))} ({health.get('failed', '-')})"
    load = result.get("load_before")
    figures = " ".join(f"{fmt(result.get(key), 1):>8}" for key in ("p50_ms", "p99_ms", "max_ms"))
    counts = f"{fmt(result.get('moves')):>6} {fmt(result.get('unanswered')):>5}"
    return (f"{result['label']:<38} {figures} {counts} "
            f"{rss:>25} {probe:>21} {result.get('server_errors', '-'):>6} "
            f"{fmt(result.get('server_cpu_s'), 1):>6}  {load[0] if load else '-'}")


def median_of(results: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in results if isinstance(r.get(key), (int, float))]
    return statistics.median(values) if values else None


def summary(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    print()
    where = ("behind nginx" if args.nginx else "direct") + (", PostgreSQL" if args.postgres else ", SQLite")
    print(f"Medians of {args.runs} run(s), {args.seconds:g} s per attack, {where}, think {args.think:g} ms; "
          "load = 1-minute load average at each run's start")
    print(HEADER)
    for kind in args.kinds:
        runs = [r for r in results if r["attack"] == kind and "p50_ms" in r]
        if not runs:
            continue
        merged: dict[str, Any] = {"label": runs[0]["label"]}
        for key in ("p50_ms", "p99_ms", "max_ms", "moves", "unanswered", "rss_before_mib", "rss_max_mib",
                    "rss_after_mib", "server_errors", "server_cpu_s"):
            merged[key] = median_of(runs, key)
        merged["newcomer"] = {"p99_ms": median_of([r["newcomer"] for r in runs], "p99_ms"),
                              "failed": median_of([r["newcomer"] for r in runs], "failed")}
        merged["load_before"] = [statistics.median(r["load_before"][0] for r in runs)]
        print(line(merged))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long each attack runs")
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help="comma-separated, of: " + ", ".join(ATTACKS) + " (none: the quiet run)")
    parser.add_argument("--runs", type=int, default=1, help="rounds of every attack (interleaved)")
    parser.add_argument("--nginx", action="store_true", help="behind nginx with deploy/nginx-scale.conf")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="PostgreSQL server (postgresql+asyncpg://…/db): a fresh database a run")
    parser.add_argument("--think", type=float, default=100.0,
                        help="ms an honest player waits before its move (±50 %%; the default member rate "
                             "is 10 moves a second)")
    parser.add_argument("--warmup", type=float, default=3.0, help="s of honest play before the attack")
    parser.add_argument("--settle", type=float, default=5.0, help="s after the attack before RSS after")
    parser.add_argument("--slowloris", type=int, default=1000)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--replays", type=float, default=60.0, help="replays a minute")
    parser.add_argument("--hellos", type=float, default=55.0, help="spectator hellos a second")
    parser.add_argument("--table-entries", type=int, default=8000)
    parser.add_argument("--table-timeout", type=float, default=900.0, help="s to build the table at most")
    parser.add_argument("--table-cache", default=None, metavar="PATH",
                        help="keep the built table here (SQLite file; with --postgres the template "
                             "database " + TABLE_DATABASE + ") and its room in PATH.json, and reuse it")
    parser.add_argument("--server-files", type=int, default=1024, help="the server's open-file limit")
    parser.add_argument("--keep", action="store_true", help="keep each run's data directory and logs")
    parser.add_argument("--attacker-nice", type=int, default=None, metavar="N",
                        help="the attacker's niceness (19: it gets only the CPU nothing else here "
                             "wants, as an attacker on a machine of its own would take none)")
    parser.add_argument("--attacker-cpus", default=None, metavar="LIST",
                        help="CPUs the attacker runs on, e.g. 0 (run the rest with taskset -c 1: the "
                             "server's core is not the attacker's, as on two machines)")
    args = parser.parse_args()
    args.kinds = [kind.strip() for kind in args.attacks.split(",") if kind.strip()]
    unknown = [kind for kind in args.kinds if kind not in ATTACKS]
    if unknown:
        raise SystemExit(f"unknown attacks: {', '.join(unknown)}")
    if args.nginx and shutil.which("nginx") is None:
        raise SystemExit("--nginx needs nginx on the PATH (apt-get install nginx)")
    # This process holds the honest room and the probes; the attacks have a process each.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    task = asyncio.current_task()
    assert task is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, task.cancel)
    databases = Databases(args.postgres) if args.postgres else None
    work = Path(tempfile.mkdtemp(prefix="houserules-abuse-"))
    results: list[dict[str, Any]] = []
    print(HEADER, flush=True)
    try:
        table = await build_table(args, databases, work) if "replays" in args.kinds else None
        number = 0
        for _ in range(args.runs):
            for kind in args.kinds:
                number += 1
                try:
                    async with asyncio.timeout(args.seconds + args.warmup + args.settle + 180):
                        result = await one_run(args, kind, table, databases, work, number)
                except TimeoutError:
                    result = {"attack": kind, "label": label(args, kind), "deadline_hit": True}
                except (OSError, RuntimeError, httpx.HTTPError) as error:
                    result = {"attack": kind, "label": label(args, kind), "failed": repr(error)}
                results.append(result)
                if "p50_ms" in result:
                    print(line(result), flush=True)
                print(json.dumps(result), flush=True)
    except asyncio.CancelledError:
        print("stopped: the figures so far", flush=True)
    finally:
        summary(args, results)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    uvloop.run(main())
