"""Load: N rooms of scripted clients making random legal moves over real sockets.

    python bench/load.py --rooms 250 --clients 4 --duration 30 --spawn             # SQLite, own server
    DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test python bench/load.py --spawn ...
    python bench/load.py --url http://127.0.0.1:8000 ...                          # a running server
    python bench/load.py --spawn --server-python other/.venv/bin/python ...       # another interpreter

Prints moves/s (acknowledged, hence durable), the p50/p99 latency from send to ack and from send
to the last seat's update of that version, connected sockets and the server's RSS (from /metrics),
the server's own CPU per move (its process's CPU times from /proc, apart from this load generator;
``/metrics`` for a server started elsewhere), the database's CPU per move when it is a PostgreSQL on
this machine (every process of it, from /proc) and, last, the same figures as one JSON line.
A finished game is followed by a rematch, so every room keeps playing for the whole run.

It never hangs: a socket that fails to connect, or fails before the start, is counted and the run
goes on without it; a socket dropped during the run is counted too; ``--deadline`` bounds the whole
run (the figures gathered so far are printed all the same).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import re
import resource
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
import orjson
import uvloop
import websockets

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    games: int = 0
    failed_connect: int = 0  # sockets that never reached the start
    dropped: int = 0  # sockets that failed after the start
    duplicates: int = 0  # state frames of a version the socket already had
    out_of_order: int = 0  # state frames older than one the socket already had
    lost: int = 0  # events a socket's seat should have had (by the stored log) and never got
    duplicate_events: int = 0  # events a socket got more than once
    checked: int = -1  # sockets whose events were checked against the log (-1: not checked)
    acked_lost: int = 0  # acknowledged moves not in the log at the version their ack named
    lost_where: list[str] = field(default_factory=list)  # which socket lost which events
    presence_frames: int = 0  # room and watcher-count messages the spectators received
    presence_bytes: int = 0


class Gate:
    """The start line: every socket either arrives (connected, hello sent) or fails; the run
    starts when all have done one or the other (never waiting on a socket that is gone)."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.arrived = 0
        self.failed = 0
        self.all_in = asyncio.Event()
        self.go = asyncio.Event()
        if expected == 0:
            self.all_in.set()

    def _count(self) -> None:
        if self.arrived + self.failed >= self.expected:
            self.all_in.set()

    def arrive(self) -> None:
        self.arrived += 1
        self._count()

    def fail(self) -> None:
        self.failed += 1
        self._count()


@dataclass
class SocketLog:
    """What one player's socket was told: its seat, and every event as (version, type), in order."""

    instance: int
    seat: int | None = None
    events: list[tuple[int, str]] = field(default_factory=list)
    last_version: int = -1


@dataclass
class RoomRun:
    room: str
    clients: int
    # version -> (instance, receive time) of each seat's update
    arrivals: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    moves: list[tuple[int, float, int]] = field(default_factory=list)  # (acked version, send time, instance)
    # (acked version, message id, seat, ack time, send time): checked against the log after the run
    acked: list[tuple[int, str, int | None, float, float]] = field(default_factory=list)
    sockets: list[SocketLog] = field(default_factory=list)
    dropped_at: float | None = None  # when one of its sockets first dropped during the run

    def fanout(self, cross: bool = False, since: float = 0.0) -> list[float]:
        """Send to the last seat's update, for every acknowledged move sent from ``since`` on that all
        seats heard of (``cross``: only the seats on other instances than the mover's)."""
        out = []
        for version, sent, instance in self.moves:
            if sent < since:
                continue
            heard = self.arrivals.get(version, [])
            if len(heard) != self.clients:
                continue
            times = [at for where, at in heard if not cross or where != instance]
            if times:
                out.append(max(times) - sent)
        return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Session:
    """One player's side of the run, kept across reconnects: the message counter, the move waiting
    for its answer ([id, send time (0.0 until sent), payload, version it was picked at, action]),
    the newest version heard, the newest state frame and the moves refused at that version."""

    counter: int = 0
    waiting: list[Any] | None = None
    last_version: int = -1
    started: bool = False
    latest: dict[str, Any] | None = None
    refused: set[str] = field(default_factory=set)
    refused_at: int = -1
    swaps: int = 0  # swaps since this player's last ``ready`` (``--swaps``)
    swap_limit: int = -1


async def client(
    url: str,
    run: RoomRun,
    token: str,
    host: bool,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    gate: Gate,
    think: float = 0.0,
    instance: int = 0,
    reconnect: bool = False,
    swaps: int = -1,
) -> None:
    """One player. It reads its socket from the moment it connects, the wait at the start line
    included (a socket nobody reads stops answering the server's keepalive pings once the
    library's queue is full, and is dropped). With ``reconnect`` (failover runs), a dropped socket
    connects again (the proxy picks the instance) with the last version it heard, and the move
    waiting for an answer is sent again with the same id: stored once whatever happened to its
    first answer."""
    arrived = False
    seen = SocketLog(instance)
    run.sockets.append(seen)
    session = Session(swap_limit=swaps)
    while True:
        try:
            async with websockets.connect(f"{url}/ws/{run.room}", max_size=2**20, compression=None,
                                          open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token,
                                          "last_version": session.last_version if arrived else None}))
                if not arrived:
                    gate.arrive()
                    arrived = True
                elif session.waiting is not None:
                    # The resend's own send time: the time before the reconnect is not this move's.
                    session.waiting[1] = time.perf_counter()
                    await ws.send(session.waiting[2])
                await play(ws, run, host, stats, stop, rng, think, seen, session, gate.go)
                return
        except Exception:
            if not arrived:
                stats.failed_connect += 1
                gate.fail()
                return
            if stop.is_set():
                return
            stats.dropped += 1
            run.dropped_at = run.dropped_at or time.perf_counter()
            if not reconnect:
                return
            await asyncio.sleep(0.05)


def _pick(session: Session, rng: random.Random) -> tuple[dict[str, Any], int] | None:
    """A move from the newest state this player heard (none refused at its version), or none."""
    state = session.latest
    if state is None or not state["legal"]:
        return None
    version = int(state["version"])
    if session.refused_at != version:
        session.refused, session.refused_at = set(), version
    legal = [a for a in state["legal"] if json.dumps(a, sort_keys=True) not in session.refused]
    if not legal:
        return None  # every move here was refused: the next state brings new ones
    # Voluntary pick-ups make random games long: prefer any other move.
    others = [a for a in legal if "pick" not in a.get("type", "")]
    if 0 <= session.swap_limit <= session.swaps:
        # A player choosing at random among a dozen swaps and one ``ready`` swaps on and on (64 % of
        # all moves were swaps, with every seat swapping at once); people swap a card or two.
        others = [a for a in others if a.get("type") != "swap"]
    action = rng.choice(others or legal)
    if action.get("type") == "swap":
        session.swaps += 1
    elif action.get("type") == "ready":
        session.swaps = 0
    return action, version


async def play(ws: Any, run: RoomRun, host: bool, stats: Stats, stop: asyncio.Event, rng: random.Random,
               think: float, seen: SocketLog, session: Session, go: asyncio.Event) -> None:
    # After a reconnect the first state is the catch-up at the version last heard: not a duplicate.
    catch_up = session.started
    pending: set[asyncio.Task[None]] = set()

    def later(payload: str, delay: float) -> None:
        assert session.waiting is not None
        task = asyncio.create_task(send_later(ws, payload, session.waiting, delay))
        pending.add(task)
        task.add_done_callback(pending.discard)

    async def move() -> None:
        """The next move from the newest state, if the run is on and none is waiting for its answer."""
        if session.waiting is not None or stop.is_set() or not go.is_set():
            return
        picked = _pick(session, rng)
        if picked is None:
            return
        action, version = picked
        session.counter += 1
        msg_id = f"m{session.counter}"
        payload = json.dumps({"type": "action", "id": msg_id, "action": action})
        if think:
            # Without think time every seat always has a move ready: the latencies are then
            # queueing at saturation. A think time offers a chosen load instead; the move is sent
            # later while this loop goes on stamping what arrives.
            session.waiting = [msg_id, 0.0, payload, version, action]
            later(payload, think * rng.uniform(0.5, 1.5) / 1000)
        else:
            session.waiting = [msg_id, time.perf_counter(), payload, version, action]
            await ws.send(payload)

    recv = asyncio.ensure_future(ws.recv())
    halt = asyncio.ensure_future(stop.wait())
    start: asyncio.Future[Any] | None = asyncio.ensure_future(go.wait())
    try:
        while True:
            waits = {recv, halt} if start is None else {recv, halt, start}
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if halt in done:
                return
            if start is not None and start in done:
                start = None
                if host and not session.started:
                    await ws.send(json.dumps({"type": "host", "id": "start", "op": "start"}))
                session.started = True
                await move()
                continue
            message = orjson.loads(recv.result())
            recv = asyncio.ensure_future(ws.recv())
            now = time.perf_counter()
            kind = message["type"]
            waiting = session.waiting
            if kind == "ack" and waiting is not None and message["id"] == waiting[0]:
                stats.acks.append(now - waiting[1])
                stats.moves += 1
                run.moves.append((message["version"], waiting[1], seen.instance))
                run.acked.append((message["version"], waiting[0], seen.seat, now, waiting[1]))
                session.waiting = None
                if session.latest is not None and session.latest["version"] >= message["version"]:
                    # The state this move made came first (a seat on another instance than the
                    # room's owner hears its ack by way of the owner): the next move is due now.
                    await move()
            elif kind == "welcome":
                seen.seat = message["seat"]
            elif kind == "error" and waiting is not None and message.get("id") == waiting[0]:
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
                if message["code"] == "room_moving":
                    # The room is changing hands: the same move again, a little later.
                    later(waiting[2], 0.1)
                else:
                    # Refused (a race lost, a stale view): look at the newest state again and pick
                    # anew, never this move at that version; left idle, the room would stall.
                    if waiting[3] == session.refused_at:
                        session.refused.add(json.dumps(waiting[4], sort_keys=True))
                    session.waiting = None
                    await move()
            elif kind == "state":
                version = message["version"]
                if catch_up:
                    catch_up = False
                elif version == session.last_version:
                    stats.duplicates += 1
                elif version < session.last_version:
                    stats.out_of_order += 1
                session.last_version = max(session.last_version, version)
                if session.latest is None or version >= session.latest["version"]:
                    session.latest = message
                run.arrivals.setdefault(version, []).append((seen.instance, now))
                seen.events.extend((int(e["version"]), str(e["type"])) for e in message["events"])
                seen.last_version = session.last_version
                if message["outcome"] is not None and host and go.is_set():
                    stats.games += 1
                    session.counter += 1
                    await ws.send(json.dumps({"type": "host", "id": f"r{session.counter}", "op": "rematch"}))
                await move()
    finally:
        for future in (recv, halt, start):
            if future is not None:
                future.cancel()
        for task in pending:
            task.cancel()


async def send_later(ws: Any, payload: str, waiting: list[Any], delay: float) -> None:
    await asyncio.sleep(delay)
    if not waiting[1]:
        # Stamped when first sent; a retry of a move the room refused while changing hands keeps
        # that time (the player has been waiting for its answer all along).
        waiting[1] = time.perf_counter()
    await ws.send(payload)


async def _drain(ws: Any, stats: Stats) -> None:
    async for frame in ws:
        # Who is in the room (a ``room`` message, or a ``spectators`` count): what filling a room
        # with watchers costs each socket already there.
        if frame.startswith(('{"type":"room"', '{"type":"spectators"')):
            stats.presence_frames += 1
            stats.presence_bytes += len(frame)


async def watcher(url: str, room: str, stats: Stats, stop: asyncio.Event, gate: Gate) -> None:
    """A spectator: says hello, then only reads, from the moment it connects (the start line
    included: an unread socket stops answering the server's keepalive pings)."""
    started = False
    try:
        async with websockets.connect(f"{url}/ws/{room}", max_size=2**20, compression=None,
                                      open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            # One reading task, stopped by the run's end: a spectator costs the load generator
            # one frame read per update and nothing more (thousands of them share its core).
            reading = asyncio.ensure_future(_drain(ws, stats))
            gate.arrive()
            started = True
            halt = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({reading, halt}, return_when=asyncio.FIRST_COMPLETED)
            if halt in done:
                reading.cancel()
                return
            halt.cancel()
            reading.result()  # raises if the socket closed
            raise ConnectionError("the server closed a spectator's socket")
    except Exception:
        if not started:
            stats.failed_connect += 1
            gate.fail()
        elif not stop.is_set():
            stats.dropped += 1


def app_on_path() -> None:
    """The server's own code importable (for its URL forms and its rules of who sees what)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def proc_stat(pid: int | str) -> list[str] | None:
    """A process's /proc stat fields after its command name (Linux): state is field 3 in proc(5),
    so field N is at index N - 3; None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process (Linux /proc; its threads included)."""
    fields = proc_stat(pid)
    # utime 14 and stime 15.
    return None if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds(postmaster: int) -> float | None:
    """User + system CPU seconds of a local PostgreSQL: its postmaster's, its live children's (the
    sessions and background workers) and those of the children it has reaped (Linux /proc). A
    session that ends in the window counts with all its CPU, from before the window too."""
    fields = proc_stat(postmaster)
    if fields is None:
        return None
    # utime 14, stime 15, cutime 16 and cstime 17.
    seconds = sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        child = proc_stat(entry.name) if entry.name.isdigit() else None
        if child is not None and int(child[1]) == postmaster:  # ppid, field 4
            seconds += proc_cpu_seconds(int(entry.name)) or 0.0
    return seconds


async def local_postmaster(database: str | None) -> int | None:
    """The pid of the PostgreSQL behind ``database`` when it runs on this machine and its data
    directory's ``postmaster.pid`` is readable (None otherwise: its CPU is then not printed)."""
    if not database or not database.startswith("postgresql"):
        return None
    from sqlalchemy.engine import make_url

    url = make_url(database)
    host = url.host or str(url.query.get("host") or "")
    if host not in ("", "127.0.0.1", "localhost", "::1") and not host.startswith("/"):
        return None  # elsewhere: its processes are not ours to read
    import asyncpg  # type: ignore[import-untyped]

    app_on_path()
    from app.store.notify import asyncpg_url

    try:
        conn = await asyncpg.connect(asyncpg_url(database))
        try:
            folder = await conn.fetchval("SELECT setting FROM pg_settings WHERE name = 'data_directory'")
        finally:
            await conn.close()
        pid = int((Path(folder) / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError, TypeError, asyncpg.PostgresError, asyncpg.InterfaceError):
        return None
    return pid if Path(f"/proc/{pid}").exists() else None


LABEL = re.compile(r'(\w+)="([^"]*)"')


def histogram(texts: dict[str, str], name: str, **labels: str) -> tuple[dict[float, float], float]:
    """A Prometheus histogram summed over the servers: cumulative counts by upper bound, and the sum
    of the values observed (``labels``: the series' other labels, e.g. ``stage="lock"``)."""
    buckets: dict[float, float] = {}
    total = 0.0
    series = re.compile(rf"^{re.escape(name)}_(bucket|sum)(?:\{{([^}}]*)\}})? ([0-9.e+]+)$", re.MULTILINE)
    for text in texts.values():
        for kind, inner, value in series.findall(text):
            found = dict(LABEL.findall(inner))
            bound = found.pop("le", None)
            if found != labels:
                continue
            if kind == "sum":
                total += float(value)
            elif bound is not None:
                buckets[float(bound)] = buckets.get(float(bound), 0.0) + float(value)
    return buckets, total


def window_histogram(window: Window, name: str, **labels: str) -> tuple[dict[float, float], float]:
    """What a server histogram observed in the window: after less before."""
    after, after_sum = histogram(window.scraped, name, **labels)
    before, before_sum = histogram(window.scraped_before, name, **labels)
    return {bound: count - before.get(bound, 0.0) for bound, count in after.items()}, after_sum - before_sum


def bucket_quantile(buckets: dict[float, float], q: float) -> float | None:
    """The upper bound of the bucket holding the ``q`` quantile (None: nothing observed)."""
    total = buckets.get(float("inf"), 0.0)
    if total <= 0:
        return None
    for bound in sorted(buckets):
        if buckets[bound] >= q * total:
            return bound
    return None


def metric(text: str, name: str) -> float | None:
    match = re.search(rf"^{re.escape(name)}(?:\{{[^}}]*\}})? ([0-9.e+]+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else None


class GeneratorCollector:
    """The load generator's own garbage collector. Its collections walk every socket's record of
    events (at 4,000 sockets its middle generation's runs took 15-90 ms, its full ones 430-480 ms): the
    generator stops sending meanwhile, and the moves it owes go out together afterwards, a burst
    the server then answers in turn, so its own pauses would be measured as the server's latency.
    From the start line on it is off, what was set up frozen out of its reach (the generator's
    peak memory stayed the same: its garbage is freed by reference counts); the peak is printed."""

    def __init__(self) -> None:
        self.was_enabled = gc.isenabled()

    def quiet(self) -> None:
        gc.collect()
        gc.freeze()
        gc.disable()

    def restore(self) -> None:
        gc.unfreeze()
        if self.was_enabled:
            gc.enable()

    @staticmethod
    def peak_mib() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def line(self) -> str:
        return (f"generator's collector off from the start line; the generator's peak memory "
                f"{self.peak_mib():.0f} MiB")


@dataclass
class Window:
    """What the measured window saw; filled as it goes, so a run cut by the deadline still reports."""

    started: float | None = None
    ended: float | None = None
    cpu_client: float = 0.0
    cpu_server: dict[str, float] = field(default_factory=dict)  # server name -> CPU seconds in the window
    cpu_database: float | None = None  # the local PostgreSQL's CPU seconds in the window
    scraped: dict[str, str] = field(default_factory=dict)  # server name -> its /metrics after the window
    scraped_before: dict[str, str] = field(default_factory=dict)  # and before it
    rooms_failed: int = 0
    deadline_hit: bool = False
    killed_at: float | None = None
    load_start: tuple[float, float, float] | None = None  # os.getloadavg() as the window opened
    load_end: tuple[float, float, float] | None = None  # and as it closed
    collector: GeneratorCollector = field(default_factory=GeneratorCollector)

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended or time.perf_counter()) - self.started


class Servers:
    """The server processes measured: their CPU by pid from /proc where we know it, else from each
    one's own ``/metrics`` (``process_cpu_seconds_total``, that process's own), read straight from
    the instance (never through the proxy, which would pick one instance at random), before and
    after the window only: a scrape is not free, and one in the window would stretch it."""

    def __init__(self, urls: dict[str, str], pids: dict[str, int], postmaster: int | None = None) -> None:
        self.urls = urls  # server name -> its own base URL
        self.pids = pids
        self.postmaster = postmaster  # a local PostgreSQL's, for its CPU (``database_cpu_seconds``)

    def database_cpu(self) -> float | None:
        return None if self.postmaster is None else database_cpu_seconds(self.postmaster)

    async def scrape(self, http: httpx.AsyncClient) -> dict[str, str]:
        async def one(url: str) -> str:
            try:
                return (await http.get(url + "/metrics")).text
            except httpx.HTTPError:
                return ""  # a killed instance (failover runs) has nothing to say
        texts = await asyncio.gather(*(one(url) for url in self.urls.values()))
        return {name: text for name, text in zip(self.urls, texts, strict=True) if text}

    def cpu(self, scraped: dict[str, str]) -> dict[str, float]:
        if self.pids:
            seconds = {name: proc_cpu_seconds(pid) for name, pid in self.pids.items()}
        else:
            seconds = {name: metric(text, "process_cpu_seconds_total") for name, text in scraped.items()}
        return {name: value for name, value in seconds.items() if value is not None}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def wait_healthy(url: str, server: subprocess.Popen[bytes], limit: float = 60.0) -> None:
    async with httpx.AsyncClient() as http:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if server.poll() is not None:
                raise SystemExit(f"the server exited with code {server.returncode} before it was ready")
            try:
                if (await http.get(url + "/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit(f"the server at {url} was not ready within {limit:.0f} s")


def interpreter(python: str) -> str:
    """The version and the path of the interpreter the spawned servers run under: two builds of one
    version differ by a few percent a move (README, Benchmarks, "The interpreter's build")."""
    version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    return f"{version} ({python})"


def spawn_server(port: int, data: str, python: str = sys.executable) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "HOUSERULES_DATA_DIR": data,
        "PYTHONPATH": str(ROOT),
        # The load comes from one address and plays without pause: lift the per-address and
        # per-member limits, which would otherwise be what is measured.
        "HOUSERULES_WS_RATE": "1000",
        "HOUSERULES_WS_BURST": "1000",
        "HOUSERULES_ROOMS_PER_MINUTE": "0",
        "HOUSERULES_JOINS_PER_MINUTE": "0",
        "HOUSERULES_HELLOS_PER_SECOND": "0",  # every socket says hello from this one address
        "HOUSERULES_MEMBER_RATE": "1000",
        "HOUSERULES_MEMBER_BURST": "1000",
    }
    return subprocess.Popen([python, "-m", "app"], cwd=data, env=env)


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
    parser.add_argument("--server-python", default=sys.executable,
                        help="with --spawn: the interpreter the servers run under (default: this one), "
                             "e.g. another build of Python in a venv of the same lock "
                             "(PYTHON=... scripts/ensure-venv); it runs this tree's app")
    parser.add_argument("--server-pid", type=int, default=None,
                        help="with --url: the server's pid, to read its CPU from /proc")
    parser.add_argument("--connect-timeout", type=float, default=60.0,
                        help="s to wait for every socket to connect (the rest are counted as failed)")
    parser.add_argument("--deadline", type=float, default=None,
                        help="s for the whole run, set-up included (default: duration + 120)")
    parser.add_argument("--instances", type=int, default=1,
                        help="with --spawn: this many servers on one PostgreSQL (DATABASE_URL); each "
                             "room's players are spread over them")
    parser.add_argument("--proxy", action="store_true",
                        help="with --instances: nginx in front (deploy/nginx-scale.conf, its consistent hash "
                             "of the room id), every socket through it")
    parser.add_argument("--kill-after", type=float, default=None,
                        help="with --proxy: SIGKILL instance 0 this many s into the run (failover), "
                             "then print the time each of its rooms took to resume and acked moves lost")
    parser.add_argument("--swaps", type=int, default=-1,
                        help="swaps a player makes at most before it is ready (Palace's swap phase; -1: "
                             "no limit, a random walk where most moves are swaps)")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="s of play before the window opens (every room's first moves fall in one "
                             "second; they are then left out of the figures). At 1,000 rooms x 4 with "
                             "1 s think the backlog of that start drains in about 10 s: use 15")
    parser.add_argument("--database-url", default=None,
                        help="with --url: the server's database, to check every event was delivered once")
    args = parser.parse_args()
    deadline = args.deadline if args.deadline is not None else args.duration + 120
    database = os.environ.get("DATABASE_URL")
    if args.instances > 1 and not (args.spawn and database and database.startswith("postgresql")):
        raise SystemExit("--instances needs --spawn and DATABASE_URL=postgresql+asyncpg://...")

    if args.kill_after is not None and not (args.proxy and args.instances > 1):
        raise SystemExit("--kill-after needs --proxy and --instances 2 or more")
    servers: list[subprocess.Popen[bytes]] = []
    proxy: subprocess.Popen[bytes] | None = None
    urls = [args.url]
    direct = {"server": args.url}  # each server's own address (for /metrics, never the proxy's)
    pids: dict[str, int] = {}
    if args.spawn:
        urls = []
        direct = {}
        data = tempfile.mkdtemp(prefix="houserules-bench-")
        if not database:
            database = f"sqlite+aiosqlite:///{data}/houserules.sqlite3"
        for index in range(args.instances):
            port = free_port()
            servers.append(spawn_server(port, data, args.server_python))
            urls.append(f"http://127.0.0.1:{port}")
            name = "server" if args.instances == 1 else f"instance {index}"
            pids[name] = servers[-1].pid
            direct[name] = urls[-1]
            if index == 0:  # the first applies the migrations before the others start
                await wait_healthy(urls[0], servers[0])
        if args.proxy:
            for url, server in zip(urls, servers, strict=True):
                await wait_healthy(url, server)
            proxy, proxy_url = spawn_proxy(urls, data)
            await wait_healthy(proxy_url, proxy)
            urls = [proxy_url]
    else:
        database = args.database_url
        if args.server_pid is not None:
            pids["server"] = args.server_pid
    postmaster = await local_postmaster(database)
    stats = Stats()
    window = Window()
    runs: list[RoomRun] = []
    # SIGTERM (e.g. from `timeout`) ends the run like the deadline: figures so far, servers stopped.
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    killer: asyncio.Task[None] | None = None
    if args.kill_after is not None:
        killer = asyncio.create_task(kill_later(window, servers[0], args.kill_after))
    try:
        try:
            async with asyncio.timeout(deadline):
                if proxy is None:
                    for url, server in zip(urls, servers, strict=False):
                        await wait_healthy(url, server)
                await run(args, urls, Servers(direct, pids, postmaster), stats, window, runs)
        except (TimeoutError, asyncio.CancelledError):
            window.deadline_hit = True
        if database and not window.deadline_hit:
            await check_delivery(database, runs, stats)
        report(args, stats, window, runs)
    finally:
        if killer is not None:
            killer.cancel()
        if proxy is not None:
            proxy.send_signal(signal.SIGQUIT)
            proxy.wait(10)
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()


def spawn_proxy(urls: list[str], data: str) -> tuple[subprocess.Popen[bytes], str]:
    """nginx with the shipped scale-out config, its upstream the spawned instances."""
    port = free_port()
    site = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    upstream = "\n    ".join(f"server {url.removeprefix('http://')};" for url in urls)
    site = site.replace("server app:8000 resolve;", upstream)
    site = site.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    folder = Path(data) / "nginx"
    folder.mkdir(exist_ok=True)
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nworker_processes 1;\n"
        f"events {{ worker_connections 20000; }}\n"
        f"http {{ access_log off; client_body_temp_path {folder / 'body'}; {temp}\n"
        f"include {folder / 'site.conf'}; }}\n")
    process = subprocess.Popen(["nginx", "-c", str(folder / "nginx.conf"), "-g", "daemon off;"])
    return process, f"http://127.0.0.1:{port}"


async def kill_later(window: Window, server: subprocess.Popen[bytes], after: float) -> None:
    while window.started is None:
        await asyncio.sleep(0.05)
    await asyncio.sleep(after)
    window.killed_at = time.perf_counter()
    server.send_signal(signal.SIGKILL)


async def check_delivery(database: str, runs: list[RoomRun], stats: Stats) -> None:
    """Each socket's events against the stored log, up to the last state it got: every event its
    seat may see must have come exactly once (``lost`` and ``duplicate_events`` count the misses)."""
    app_on_path()
    # The server's own rule of who sees what.
    from app.rooms.entries import visible as _visible
    from app.store import queries
    from app.store.db import make_engine

    engine = make_engine(database)
    stats.checked = 0
    try:
        for room in runs:
            entries = await queries.log_since(engine, room.room, 0, limit=10_000_000)
            by_version = {entry.version: entry.msg_id for entry in entries}
            stats.acked_lost += sum(1 for version, msg_id, _, _, _ in room.acked
                                    if by_version.get(version) != msg_id)
            for seen in room.sockets:
                if seen.seat is None:
                    continue
                expected = collections.Counter(
                    (entry.version, str(row["type"])) for entry in entries
                    if entry.version <= seen.last_version
                    for row in entry.events if _visible(row, seen.seat, entry.version, 0))
                got = collections.Counter(seen.events)
                if expected - got:
                    missing = sorted(expected - got)
                    stats.lost_where.append(
                        f"room {room.room}, seat {seen.seat} on instance {seen.instance}: "
                        f"{len(missing)} events, versions {missing[0][0]}-{missing[-1][0]}")
                stats.lost += sum((expected - got).values())
                stats.duplicate_events += sum((got - expected).values())
                stats.checked += 1
    finally:
        await engine.dispose()


async def run(args: argparse.Namespace, urls: list[str], servers: Servers, stats: Stats, window: Window,
              runs: list[RoomRun]) -> None:
    url = urls[0]
    ws_urls = [u.replace("http://", "ws://").replace("https://", "wss://") for u in urls]
    stop = asyncio.Event()
    rng = random.Random(7)
    tasks: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        body: dict[str, Any] = {"game": args.game, "name": "p0", "seats": args.clients}
        if args.preset:
            body["preset"] = args.preset
        seated: list[tuple[RoomRun, list[str]]] = []
        for _ in range(args.rooms):
            try:
                made = (await http.post("/api/rooms", json=body)).raise_for_status().json()
                tokens = [made["token"]]
                for i in range(1, args.clients):
                    joined = await http.post(f"/api/rooms/{made['room']}/join", json={"name": f"p{i}"})
                    tokens.append(joined.raise_for_status().json()["token"])
            except httpx.HTTPError:
                window.rooms_failed += 1
                continue
            seated.append((RoomRun(made["room"], args.clients), tokens))
            runs.append(seated[-1][0])
        if not seated:
            return
        # Spectators first, all of them in before any player connects: each arrival is announced to
        # the sockets already there, and joins still coming in would otherwise load the first
        # moves of the run.
        watching = Gate(args.watchers)
        tasks = [
            asyncio.create_task(watcher(ws_urls[i % len(ws_urls)], seated[i % len(seated)][0].room, stats,
                                        stop, watching))
            for i in range(args.watchers)
        ]
        started = time.perf_counter()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watching.all_in.wait(), args.connect_timeout)
        gate = Gate(len(seated) * args.clients)
        # With several instances, a room's seats are spread over them (seat i of room r on
        # instance (r + i) mod N): every move has listeners on another instance.
        tasks += [
            asyncio.create_task(
                client(ws_urls[(r + i) % len(ws_urls)], room, token, i == 0, stats, stop,
                       random.Random(rng.random()), gate, args.think, (r + i) % len(ws_urls),
                       args.kill_after is not None, args.swaps)
            )
            for r, (room, tokens) in enumerate(seated)
            for i, token in enumerate(tokens)
        ]
        try:
            # Sockets still connecting then are counted as failed if they never make it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gate.all_in.wait(),
                                       max(0.0, args.connect_timeout - (time.perf_counter() - started)))
            window.collector.quiet()
            if args.warmup:
                # Every room's first moves come in the same second (a start no evening has): the
                # window may open once the rooms have drifted apart, the moves before it left out.
                gate.go.set()
                await asyncio.sleep(args.warmup)
                stats.acks.clear()
            # Before the window: a scrape (the servers' own histograms, and the CPU of those whose
            # pid is unknown) and /proc.
            window.scraped_before = await servers.scrape(http)
            cpu_before = servers.cpu({} if servers.pids else window.scraped_before)
            database_before = servers.database_cpu()
            window.load_start = os.getloadavg()
            gate.go.set()
            window.started = time.perf_counter()
            cpu_client = time.process_time()
            await asyncio.sleep(args.duration)
            window.ended = time.perf_counter()
            window.cpu_client = time.process_time() - cpu_client
            window.load_end = os.getloadavg()
            cpu_after = servers.cpu({}) if servers.pids else {}
            database_after = servers.database_cpu()
            if database_before is not None and database_after is not None:
                window.cpu_database = database_after - database_before
            window.scraped = await servers.scrape(http)
            if not servers.pids:
                cpu_after = servers.cpu(window.scraped)
            window.cpu_server = {name: cpu_after[name] - cpu_before[name]
                                 for name in cpu_after if name in cpu_before}
        finally:
            window.collector.restore()
            if window.started is not None and window.ended is None:
                window.ended = time.perf_counter()
            stop.set()
            # Sockets get a moment to close cleanly; any still stuck then are cancelled.
            _, stuck = await asyncio.wait(tasks, timeout=10)
            for task in stuck:
                task.cancel()


def sum_of(values: Any) -> float | None:
    """The sum of the figures some instance gave (none if none did)."""
    given = [value for value in values if value is not None]
    return sum(given) if given else None


# A process at this share of one core is at its limit: each is one event loop on one core.
SATURATED = 0.9


def limit_of(generator: float, servers: dict[str, float], elapsed: float) -> str:
    """What held the run back, judged from the window's CPU shares: the load generator (one
    process, one core), a server process, or the machine (every core busy with both); else none
    of them (the think time, or latency, set the pace)."""
    shares = {name: seconds / elapsed for name, seconds in servers.items()} if elapsed else {}
    busiest = max(shares.items(), key=lambda item: item[1], default=None)
    cores = os.cpu_count() or 1
    if generator >= SATURATED:
        return "generator-bound (figures are a floor of what the server can do)"
    if busiest is not None and busiest[1] >= SATURATED:
        return f"server-bound ({busiest[0]} at {busiest[1] * 100:.0f}% of a core)"
    if generator + sum(shares.values()) >= SATURATED * cores:
        return f"machine-bound (generator and servers use {cores} cores between them)"
    if not shares:
        return "server CPU unknown; the generator was not the limit"
    return "neither at its limit (the pace was set by think time or waiting)"


def server_stages(window: Window) -> None:
    """The servers' own receive-to-ack time in the window (from their histogram: a quantile is
    given as the upper bound of its bucket), where it went (``houserules_move_stage_seconds``,
    docs/protocol.md), and the pauses every room felt at once: the garbage collector's runs and the
    event loop's lag (app/vitals.py)."""
    buckets, total = window_histogram(window, "houserules_move_latency_seconds")
    count = buckets.get(float("inf"), 0.0)
    if not count:
        return
    p50, p99 = bucket_quantile(buckets, 0.5), bucket_quantile(buckets, 0.99)
    print(f"server receive->ack p50 <= {(p50 or 0) * 1000:g} ms  p99 <= {(p99 or 0) * 1000:g} ms  "
          f"mean {total / count * 1000:.1f} ms ({count:.0f} moves, the servers' own histogram)")
    parts = []
    counts: dict[str, float] = {}
    for stage in ("lock", "commit", "queued", "write"):
        stage_buckets, stage_total = window_histogram(window, "houserules_move_stage_seconds", stage=stage)
        n = counts[stage] = stage_buckets.get(float("inf"), 0.0)
        if n:
            q99 = bucket_quantile(stage_buckets, 0.99) or 0.0
            parts.append(f"{stage} mean {stage_total / n * 1000:.1f} ms p99 <= {q99 * 1000:g} ms")
    if parts:
        print("  where it went: " + "; ".join(parts) + " (write: a batch's)")
    # Each commit is queued once and each batch written once: commits a batch is the group commit's gain.
    if counts.get("write"):
        print(f"  group commit: {counts['write'] / max(window.elapsed(), 1e-9):.0f} batches/s, "
              f"{counts['queued'] / counts['write']:.2f} commits a batch")
    pauses = []
    for generation in ("0", "1", "2"):
        gc_buckets, gc_total = window_histogram(window, "houserules_gc_pause_seconds", generation=generation)
        n = gc_buckets.get(float("inf"), 0.0)
        if n:
            pauses.append(f"generation {generation}: {n:.0f} runs, {gc_total * 1000:.0f} ms in all, "
                          f"the longest <= {longest(gc_buckets) * 1000:g} ms")
    if pauses:
        print("collector: " + "; ".join(pauses))
    lag, lag_total = window_histogram(window, "houserules_loop_lag_seconds")
    n = lag.get(float("inf"), 0.0)
    if n:
        over = n - lag.get(0.025, n)
        print(f"event loop lag (a timer every 0.1 s): mean {lag_total / n * 1000:.1f} ms, "
              f"p99 <= {(bucket_quantile(lag, 0.99) or 0) * 1000:g} ms, over 25 ms {over:.0f} of {n:.0f}, "
              f"the longest <= {longest(lag) * 1000:g} ms")


def longest(buckets: dict[float, float]) -> float:
    """The upper bound of the bucket that holds the longest observation."""
    return bucket_quantile(buckets, 1.0) or 0.0


def finite(value: float | None, digits: int = 2) -> float | None:
    """A figure for the JSON line: none when there was nothing to measure (no move in the window;
    JSON has no NaN)."""
    return round(value, digits) if value is not None and value == value else None


def report(args: argparse.Namespace, stats: Stats, window: Window, runs: list[RoomRun]) -> None:
    server_python = interpreter(args.server_python) if args.spawn else None
    cross: list[float] = []
    since = window.started or 0.0
    for room in runs:
        stats.fanout.extend(room.fanout(since=since))
        if args.instances > 1 and not args.proxy:
            cross.extend(room.fanout(cross=True, since=since))
    elapsed = window.elapsed()
    # Over every instance, from each one's own /metrics after the window.
    sockets = sum_of(metric(text, "houserules_sockets") for text in window.scraped.values())
    rss = sum_of(metric(text, "process_resident_memory_bytes") for text in window.scraped.values())
    ms = {name: [percentile(values, q) * 1000 for q in (0.5, 0.99)]
          for name, values in (("ack", stats.acks), ("fan", stats.fanout), ("cross", cross))}
    # Moves acknowledged inside the window only: the ones around it (before the first scrape is
    # done, while the sockets close) are not the window's.
    in_window = sum(1 for room in runs for *_, at, _ in room.acked
                    if window.started is not None and window.started <= at <= (window.ended or at))
    rate = in_window / elapsed if elapsed else 0.0
    cpu_total = sum(window.cpu_server.values())
    # The window's CPU over the window's moves (with ``--warmup`` many moves come before it); with
    # no move in the window (nobody moving: the idle cost) there is no figure a move, only the share.
    def ms_per_move(seconds: float) -> float | None:
        return seconds / in_window * 1000 if in_window else None

    def per_move_text(seconds: float) -> str:
        value = ms_per_move(seconds)
        return "no move in the window" if value is None else f"{value:.3f} ms per move"

    per_move = {name: ms_per_move(seconds) for name, seconds in window.cpu_server.items()}
    if window.deadline_hit:
        print(f"DEADLINE: the run was cut at {args.deadline or args.duration + 120:.0f} s; figures so far")
    print(f"rooms {args.rooms} x {args.clients} clients, window {elapsed:.1f} s "
          f"(asked for {args.duration:g} s)")
    print(f"moves/s {rate:.1f} ({in_window} acknowledged in the window, {stats.moves} in all, "
          f"games finished {stats.games})")
    print(f"ack     p50 {ms['ack'][0]:.1f} ms  p99 {ms['ack'][1]:.1f} ms (send to ack)")
    print(f"fan-out p50 {ms['fan'][0]:.1f} ms  p99 {ms['fan'][1]:.1f} ms (send to the last seat's update)")
    print(f"sockets failed to connect {stats.failed_connect}, dropped during the run {stats.dropped}, "
          f"rooms not created {window.rooms_failed}")
    if args.instances > 1 and not args.proxy:
        print(f"cross-instance fan-out p50 {ms['cross'][0]:.1f} ms  p99 {ms['cross'][1]:.1f} ms "
              f"(send to the last seat's update on another instance than the mover's)")
    print(f"state frames duplicated {stats.duplicates}, out of order {stats.out_of_order}")
    server_stages(window)
    if args.watchers:
        print(f"room and watcher-count messages to the spectators: {stats.presence_frames} "
              f"({stats.presence_bytes / 2**20:.1f} MiB)")
    # A room whose players all wait (a refused move nobody follows up, a lost update) goes quiet.
    quiet_from = (window.ended or 0.0) - elapsed / 4
    stalled_rooms = sum(1 for room in runs if not any(quiet_from <= at for *_, at, _ in room.acked))
    print(f"rooms with no move acknowledged in the window's last quarter: {stalled_rooms} of {len(runs)}")
    resumed: list[float] = []
    stalled = 0
    if window.killed_at is not None:
        killed = window.killed_at
        for room in runs:
            if room.dropped_at is None:
                continue
            # Moves sent after the kill (a resend after the reconnect carries its own send time):
            # an answer already on its way when the instance died says nothing of the resumption.
            after = [at for *_, at, sent in room.acked if sent >= killed]
            if after:
                resumed.append(min(after) - killed)
            else:
                stalled += 1
        p50 = finite(percentile(resumed, 0.5) * 1000)
        print(f"failover: instance 0 killed {killed - (window.started or killed):.1f} s in; its "
              f"{len(resumed) + stalled} rooms resumed after p50 {p50} ms, "
              f"max {finite(max(resumed) * 1000) if resumed else None} ms; {stalled} never resumed")
    if stats.checked >= 0:
        print(f"acknowledged moves not in the log: {stats.acked_lost}")
        print(f"events checked against the log on {stats.checked} sockets: lost {stats.lost}, "
              f"duplicated {stats.duplicate_events}")
        for where in stats.lost_where[:5]:
            print(f"  lost: {where}")
    if sockets is not None and rss is not None:
        print(f"sockets {sockets:.0f}  server RSS {rss / 2**20:.0f} MiB")
    generator = window.cpu_client / elapsed if elapsed else 0.0
    verdict = limit_of(generator, window.cpu_server, elapsed)
    if window.load_end is not None and window.load_end[0] > (os.cpu_count() or 1):
        # Others' processes too: the cores were not the run's alone.
        verdict += f"; the machine was overloaded (load {window.load_end[0]:.1f} on {os.cpu_count()} cores)"
    print(f"generator-cpu {generator * 100:.0f}% of a core (the load generator's own process): {verdict}")
    print(window.collector.line())
    if window.load_start is not None:
        end = window.load_end or os.getloadavg()
        print(f"load average {' '.join(f'{x:.2f}' for x in window.load_start)} at the start, "
              f"{' '.join(f'{x:.2f}' for x in end)} at the end ({os.cpu_count()} cores)")
    if server_python is not None:
        print(f"server python {server_python}")
    if window.cpu_server and elapsed:
        print(f"cpu     server {cpu_total / elapsed * 100:.0f}% of a core "
              f"({per_move_text(cpu_total)}, fan-out included), "
              f"load clients {window.cpu_client / elapsed * 100:.0f}%")
        if len(per_move) > 1:
            print("cpu     per instance: " + ", ".join(f"{name} {per_move_text(seconds)}"
                                                   for name, seconds in window.cpu_server.items()))
    if window.cpu_database is not None and elapsed:
        print(f"cpu     database {window.cpu_database / elapsed * 100:.0f}% of a core "
              f"({per_move_text(window.cpu_database)}; every process of the "
              f"local PostgreSQL, so other work on it counts too)")
    if stats.errors:
        print("refused: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())))
    if stats.acks:
        print(f"ack mean {statistics.fmean(stats.acks) * 1000:.1f} ms")
    print(json.dumps({
        "rooms": args.rooms, "clients": args.clients, "think_ms": args.think, "seconds": round(elapsed, 2),
        "asked_seconds": args.duration, "moves_in_window": in_window, "stalled_rooms": stalled_rooms,
        "moves": stats.moves, "moves_per_s": round(rate, 1), "games": stats.games,
        "generator_cpu_share": round(generator, 3), "limit": verdict,
        "generator_peak_mib": round(window.collector.peak_mib(), 1),
        "load_start": window.load_start, "load_end": window.load_end, "watchers": args.watchers,
        "swaps": args.swaps, "warmup": args.warmup,
        "ack_p50_ms": finite(ms["ack"][0]), "ack_p99_ms": finite(ms["ack"][1]),
        "fanout_p50_ms": finite(ms["fan"][0]), "fanout_p99_ms": finite(ms["fan"][1]),
        "server_cpu_ms_per_move": finite(ms_per_move(cpu_total), 4) if window.cpu_server else None,
        "server_cpu_ms_per_move_by_instance": {k: finite(v, 4) for k, v in per_move.items()},
        "database_cpu_ms_per_move": finite(ms_per_move(window.cpu_database), 4)
        if window.cpu_database is not None else None,
        "database_cpu_share": round(window.cpu_database / elapsed, 3)
        if window.cpu_database is not None and elapsed else None,
        "server_cpu_share": round(cpu_total / elapsed, 3) if elapsed else None,
        "client_cpu_share": round(window.cpu_client / elapsed, 3) if elapsed else None,
        "failed_connect": stats.failed_connect, "dropped": stats.dropped, "rooms_failed": window.rooms_failed,
        "duplicate_states": stats.duplicates, "out_of_order_states": stats.out_of_order,
        "instances": args.instances, "server_python": server_python,
        "cross_fanout_p50_ms": finite(ms["cross"][0]), "cross_fanout_p99_ms": finite(ms["cross"][1]),
        "lost_events": stats.lost if stats.checked >= 0 else None,
        "duplicate_events": stats.duplicate_events if stats.checked >= 0 else None,
        "refused": dict(sorted(stats.errors.items())), "sockets": sockets,
        "server_rss_mib": round(rss / 2**20, 1) if rss is not None else None,
        "deadline_hit": window.deadline_hit,
        "proxy": args.proxy,
        "acked_moves_lost": stats.acked_lost if stats.checked >= 0 else None,
        "failover_rooms": len(resumed) + stalled if window.killed_at is not None else None,
        "failover_resume_p50_ms": finite(percentile(resumed, 0.5) * 1000) if resumed else None,
        "failover_resume_max_ms": finite(max(resumed) * 1000) if resumed else None,
        "failover_never_resumed": stalled if window.killed_at is not None else None,
    }))


if __name__ == "__main__":
    # The load generator shares the machine with the server: uvloop and orjson (the server's own
    # dependencies) leave it more of the cores.
    uvloop.run(main())
