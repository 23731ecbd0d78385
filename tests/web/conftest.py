"""One server for the web tests that need one with the default settings (test_frames,
test_rooms_api, test_refusal_texts): started once per session (per worker under xdist), not once
per module. A module that needs other settings defines its own ``server``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("web")).start()
    try:
        yield proc
    finally:
        proc.stop()
