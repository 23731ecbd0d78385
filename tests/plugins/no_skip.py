"""With HOUSERULES_NO_SKIP=1 (CI sets it), a skipped test fails the run.

Locally, tests that need PostgreSQL or Chromium skip with a reason when those are absent; in CI
everything they need is installed, so a skip there means something is missing.
"""

from __future__ import annotations

import os

import pytest

ENFORCED = os.environ.get("HOUSERULES_NO_SKIP") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if ENFORCED and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped in a run where nothing may skip (HOUSERULES_NO_SKIP=1): {reason}"
