"""Who a request comes from, for the per-address limits.

The launcher (uvicorn's proxy headers, ``HOUSERULES_TRUSTED_PROXIES``) has already replaced the
peer's address with the client's when the peer is a trusted proxy: the right-most address of
``X-Forwarded-For`` that is not itself a trusted proxy, so an address the client wrote at the
header's left is never believed. Here the address becomes its bucket key (an IPv6 client's /64),
and a request that carries ``X-Forwarded-For`` from a peer that is not trusted is logged once per
peer: every client behind that proxy would otherwise share one bucket without anyone knowing.
"""

from __future__ import annotations

import logging

from starlette.requests import HTTPConnection

from app.rooms.limits import address_key

log = logging.getLogger("app")

# Peers already warned about (bounded: a stranger sending the header from many addresses cannot
# grow it without end).
_warned: set[str] = set()
_WARN_MAX = 1000


def _forwarded_hosts(header: str) -> list[str]:
    return [part.strip() for part in header.split(",") if part.strip()]


def client_key(conn: HTTPConnection) -> str:
    """The key the caller's per-address limits are kept under."""
    host = conn.client.host if conn.client is not None else None
    forwarded = conn.headers.get("x-forwarded-for")
    # A trusted proxy's header names the client we now see; this peer's was not believed.
    if (forwarded and host is not None and host not in _forwarded_hosts(forwarded)
            and host not in _warned and len(_warned) < _WARN_MAX):
        _warned.add(host)
        log.warning("a request came through %s with X-Forwarded-For, but %s is not among the trusted "
                    "proxies (HOUSERULES_TRUSTED_PROXIES): every client behind it shares one per-address "
                    "limit. Name that proxy's address exactly if it is yours.", host, host)
    return address_key(host)


def forwarded(conn: HTTPConnection) -> bool:
    """Whether the request says it came through a proxy (or pretends to)."""
    return "x-forwarded-for" in conn.headers or "forwarded" in conn.headers
