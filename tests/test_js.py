"""The scripts' own checks, run with node: the unit tests of static/js's pure parts (tests/js/*.test.mjs,
``node --test``) and the project's linter (tests/js/lint.mjs, which says why it is not ESLint).

Both need node (18 or newer: ``node --test``, Web Crypto's Ed25519); without it they skip with the
reason, and a run that forbids skips (HOUSERULES_NO_SKIP=1, CI) fails instead (tests/plugins/no_skip.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"
MIN_NODE = 18


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    match = re.match(r"v(\d+)\.", version)
    if not match or int(match.group(1)) < MIN_NODE:
        pytest.skip(f"node {version.strip()} is older than {MIN_NODE} (node --test)")
    return node


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def test_js_unit_tests_pass() -> None:
    files = sorted(str(path.relative_to(ROOT)) for path in JS_TESTS.glob("*.test.mjs"))
    assert files, "no tests under tests/js"
    run = _run([_node(), "--test", "--test-reporter=tap", *files])
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    # Every file ran (a file that fails to load would show as one failed test, not as none at all).
    assert re.search(r"^# fail 0$", run.stdout, re.MULTILINE), run.stdout[-2000:]
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) >= len(files), run.stdout[-2000:]


def test_js_lint_finds_nothing() -> None:
    run = _run([_node(), str(JS_TESTS / "lint.mjs")])
    assert run.returncode == 0, f"tests/js/lint.mjs:\n{run.stdout}{run.stderr}"
