"""The shipped proxy examples: each validated by its own tool (``nginx -t``, ``caddy validate``) and
then run for real in front of ``python -m app``: pages, the API and a WebSocket game socket pass
through with the client's Host (the app's origin check compares it with the public origin), and
``/metrics`` is refused at the proxy. What needs Docker (its DNS re-resolving the replicas, the
certificate from Let's Encrypt) cannot run here; the files' settings for it are checked as text."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.client import Client, make_room
from tests.support import ROOT, ServerProcess, free_port

NGINX_RESOLVE = (1, 27, 3)  # the first open-source nginx with `server ... resolve` in an upstream


def binary(name: str, *elsewhere: str) -> str:
    found = shutil.which(name) or next((path for path in elsewhere if os.access(path, os.X_OK)), None)
    if found is None:
        pytest.skip(f"{name} is not installed (apt-get install {name}; .ci/run installs it)")
    return found


def nginx_version(nginx: str) -> tuple[int, ...]:
    out = subprocess.run([nginx, "-v"], capture_output=True, text=True, check=True).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", out)
    assert found is not None, out
    return tuple(int(part) for part in found.groups())


def nginx_config(folder: Path, nginx: str, upstream: str, port: int) -> Path:
    """deploy/nginx-scale.conf in a minimal nginx.conf, its upstream ``upstream`` and its port
    ``port``; an nginx older than 1.27.3 (Debian's 1.22 here) gets the replica line without
    ``resolve``, which it does not know (compose's image is 1.27.5)."""
    site = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    assert "server app:8000 resolve;" in site and "listen 8000;" in site
    server = f"server {upstream} resolve;" if nginx_version(nginx) >= NGINX_RESOLVE else f"server {upstream};"
    site = site.replace("server app:8000 resolve;", server)
    site = site.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("proxy", "fastcgi", "uwsgi", "scgi"))
    main = folder / "nginx.conf"
    main.write_text(f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nworker_processes 1;\n"
                    f"events {{ worker_connections 256; }}\n"
                    f"http {{ access_log off; client_body_temp_path {folder / 'body'}; {temp}\n"
                    f"include {folder / 'site.conf'}; }}\n")
    return main


def wait_answering(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def wait_for_line(log: Path, marker: str) -> str:
    """The server's log line holding ``marker`` (the access log line is written after the answer)."""
    while True:
        for line in log.read_text().splitlines():
            if marker in line:
                return line
        time.sleep(0.02)


@pytest.fixture
def app_behind(tmp_path: Path) -> Iterator[tuple[ServerProcess, int]]:
    """``python -m app`` trusting loopback as its proxy, its public origin the proxy's address."""
    proxy_port = free_port()
    server = ServerProcess(tmp_path, HOUSERULES_TRUSTED_PROXIES="127.0.0.1",
                           HOUSERULES_PUBLIC_ORIGIN=f"http://127.0.0.1:{proxy_port}").start()
    try:
        yield server, proxy_port
    finally:
        server.stop()


async def check_through(proxy: str, server: ServerProcess) -> None:
    """What players do, through the proxy at ``proxy``; /metrics refused there, served directly."""
    page = httpx.get(proxy + "/", timeout=10)
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert httpx.get(proxy + "/metrics", timeout=10).status_code == 404
    assert httpx.get(server.http + "/metrics", timeout=10).status_code == 200  # a scrape on the network
    room, tokens = await make_room(proxy, 2)
    ws = proxy.replace("http://", "ws://")
    # The Host the proxy passes on must be the public origin's (``origin_allowed``): a socket opens.
    client = Client(ws, room, tokens[0])
    welcome = await client.connect(origin=proxy)
    assert welcome["seat"] == 0
    await client.ws.close()


def test_nginx_accepts_the_scale_out_config(tmp_path: Path) -> None:
    nginx = binary("nginx", "/usr/sbin/nginx")
    main = nginx_config(tmp_path, nginx, "127.0.0.1:9", free_port())
    result = subprocess.run([nginx, "-t", "-c", str(main)], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "test is successful" in result.stderr, result.stderr
    site = (ROOT / "deploy" / "nginx-scale.conf").read_text()
    # Replicas re-resolved through Docker's DNS (no reload after --scale), on the hash ring.
    assert re.search(r"^resolver 127\.0\.0\.11 valid=\d+s", site, re.M)
    assert "zone houserules" in site and "hash $room consistent;" in site
    compose = (ROOT / "compose.scale.yml").read_text()
    found = re.search(r"image: nginx:(\d+)\.(\d+)-alpine@", compose)
    assert found is not None and (int(found[1]), int(found[2]), 5) >= NGINX_RESOLVE


@pytest.mark.timeout(180)  # a proxy that never answers fails here rather than holding the run
async def test_nginx_serves_pages_sockets_and_hides_metrics(tmp_path: Path,
                                                             app_behind: tuple[ServerProcess, int]) -> None:
    nginx = binary("nginx", "/usr/sbin/nginx")
    server, port = app_behind
    folder = tmp_path / "nginx"
    folder.mkdir()
    main = nginx_config(folder, nginx, f"127.0.0.1:{server.port}", port)
    log = folder / "out.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([nginx, "-c", str(main), "-g", "daemon off;"], stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        wait_answering(f"http://127.0.0.1:{port}/healthz", proc, log)
        await check_through(f"http://127.0.0.1:{port}", server)
    finally:
        proc.terminate()
        proc.wait(20)


def caddy_env(tmp_path: Path, site: str, upstream: str) -> dict[str, str]:
    return {**os.environ, "HOUSERULES_DOMAIN": site, "HOUSERULES_UPSTREAM": upstream,
            "CADDY_ADMIN": f"127.0.0.1:{free_port()}", "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}


def test_caddy_validates_the_https_example(tmp_path: Path) -> None:
    caddy = binary("caddy")
    result = subprocess.run(
        [caddy, "validate", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        env=caddy_env(tmp_path, "cards.example.org", "app:8000"), capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "Valid configuration" in result.stdout + result.stderr, result.stderr
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    # The site is the domain itself: Caddy's automatic HTTPS (certificate, HTTP to HTTPS redirect).
    assert re.search(r"^\{\$HOUSERULES_DOMAIN\} \{", text, re.M)
    assert "reverse_proxy {$HOUSERULES_UPSTREAM:app:8000}" in text


@pytest.mark.timeout(180)
async def test_caddy_serves_pages_sockets_and_hides_metrics(tmp_path: Path,
                                                            app_behind: tuple[ServerProcess, int]) -> None:
    caddy = binary("caddy")
    server, port = app_behind
    folder = tmp_path / "caddy"
    folder.mkdir()
    # Plain HTTP on loopback here (no certificate can be had in a test): the same file otherwise.
    env = caddy_env(folder, f"http://127.0.0.1:{port}", f"127.0.0.1:{server.port}")
    log = folder / "out.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter",
                                 "caddyfile"], env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_answering(f"http://127.0.0.1:{port}/healthz", proc, log)
        await check_through(f"http://127.0.0.1:{port}", server)
        # A client's own X-Forwarded-For is replaced, not passed on: the app (which trusts Caddy)
        # logs the address Caddy saw, never the one the client claimed.
        probe = secrets.token_hex(8)
        answer = httpx.get(f"http://127.0.0.1:{port}/healthz?probe={probe}",
                           headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
        assert answer.status_code == 200
        line = wait_for_line(server.log, probe)
        assert "203.0.113.9" not in line and "127.0.0.1" in line, line
    finally:
        proc.terminate()
        proc.wait(20)
