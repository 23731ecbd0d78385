"""Prometheus metrics of the rooms and sockets (process metrics come with prometheus-client)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

ROOMS = Gauge("houserules_rooms", "Rooms loaded in this instance", ["status"])
SOCKETS = Gauge("houserules_sockets", "Open WebSocket connections")
MOVES = Counter("houserules_moves_total", "Moves committed (player moves, timeouts and deals)", ["kind"])
REFUSED = Counter("houserules_refused_total", "Messages answered with an error", ["code"])
MOVE_LATENCY = Histogram(
    "houserules_move_latency_seconds",
    "From receiving a move to its commit and acknowledgement",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5),
)
# Where a move's time goes, from receiving it to its acknowledgement: waiting for the room's lock
# (``lock``), then its commit (``commit``: the fair round's sealing, the writer's queue and its
# batch), of which the writer's queue (``queued``: until the batch holding it starts) and the
# batch's write (``write``, observed once a batch).
MOVE_STAGE = Histogram(
    "houserules_move_stage_seconds",
    "Parts of a move's time from receiving it to its acknowledgement",
    ["stage"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
# Each stage's series, looked up once: ``labels`` takes a lock and builds a key at every call,
# four times a move.
STAGE_LOCK, STAGE_COMMIT, STAGE_QUEUED, STAGE_WRITE = (MOVE_STAGE.labels(stage)
                                                       for stage in ("lock", "commit", "queued", "write"))
CLOSES = Counter(
    "houserules_socket_closes_total", "Sockets closed by the server for protocol abuse", ["reason"])
FRAMES = Counter("houserules_frames_total", "WebSocket frames the server wrote to its clients directly")
FRAME_WRITES = Counter(
    "houserules_frame_writes_total", "Socket writes carrying those frames (a socket's frames of a loop turn)")
ABORTS = Counter(
    "houserules_socket_aborts_total",
    "Sockets whose transport the server released at once (a client that left too much unread)", ["reason"])
