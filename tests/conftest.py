"""Suite-wide settings of the test servers and the thorough run.

Fair deals (docs/fairness.md, step 3): a deal waits up to ``HOUSERULES_FAIR_WAIT_SECONDS`` for the
contribution hashes of the connected seats, which scripted clients (tests/e2e/client.py) send only
when a test asks. So every test runs with that wait at ``SHORT_WAIT`` (the deal is made almost at
once with what is in) and its servers, in-process or started as subprocesses, inherit it; a test
that contributes or that checks the wait itself is marked ``fair_wait`` and runs with the
documented default. Browser pages contribute by themselves, so the browser tests run with the
default too. The short wait is not 0: a deal still waits on the event once, as it does in
production, so the other tasks of the loop (another instance's NOTIFY) run at the same points.

``HOUSERULES_THOROUGH=1`` (``./scripts/test --thorough``) also runs the tests marked ``slow``: the
long property runs, of which the default run plays a cheaper part.

Order: the parallel run (``./scripts/test``: pytest-xdist, each module on one worker, modules handed
out in the order collected) must not end on a long module started last. So the modules marked
``heavy(seconds)`` come first, the longest first, then the others by their number of tests (what
xdist would do by itself, which put a one-test module of 90 s at the very end).
"""

from __future__ import annotations

import os

import pytest

from tests.support import drop_made_databases

FAIR_WAIT = "HOUSERULES_FAIR_WAIT_SECONDS"
SHORT_WAIT = "0.05"
THOROUGH = os.environ.get("HOUSERULES_THOROUGH") == "1"
# Set by whoever runs the suite (a thorough wait, say): then left as it is for every test.
_GIVEN_WAIT = os.environ.get(FAIR_WAIT)


def waits_for_contributions(item: pytest.Item) -> bool:
    return item.get_closest_marker("fair_wait") is not None or item.get_closest_marker("browser") is not None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the item's fixtures (a module's server is started with its first test's), so the
    servers it starts see the wait it needs."""
    if _GIVEN_WAIT is not None:
        return
    if waits_for_contributions(item):
        os.environ.pop(FAIR_WAIT, None)
    else:
        os.environ[FAIR_WAIT] = SHORT_WAIT


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``slow`` tests run only in the thorough run (deselected, not skipped: nothing is missing);
    the modules in ``module_order``."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow and not THOROUGH:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
    items[:] = module_order(items)


def module_order(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with whole modules moved (each keeps its own order): the ``heavy`` ones first, by
    the seconds they declare, longest first; then the rest, most tests first."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def weight(name: str) -> tuple[float, int]:
        marker = modules[name][0].get_closest_marker("heavy")
        seconds = float(marker.args[0]) if marker is not None and marker.args else 0.0
        return -seconds, -len(modules[name])

    return [item for name in sorted(modules, key=weight) for item in modules[name]]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The PostgreSQL databases this process's tests made, dropped together (tests/support.py)."""
    drop_made_databases()
