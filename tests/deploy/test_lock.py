"""The lock: uv.lock agrees with pyproject.toml, the hashed requirement files CI and the image
install are exported from it, every floor in pyproject.toml is the locked version (so the lowest
version allowed is the one CI tests), and this environment holds exactly what the lock names."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import tomllib

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.test_docker_files import tool
from tests.support import ROOT

LOCKS = {"app": [], "test": ["--extra", "test"]}
# Installed into every venv by Python itself, not by the lock, and the project's own metadata
# (its entry points, written by scripts/project-metadata; the project is not installed).
VENV_OWN = {"pip", "setuptools", "houserules"}


def locked(name: str) -> dict[str, str]:
    """requirements/<name>.txt as {canonical name: version}, for the packages whose markers hold here."""
    found: dict[str, str] = {}
    for line in (ROOT / "requirements" / f"{name}.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$", line)
        if match is None:
            continue
        package, version, marker = match.groups()
        if marker is None or Marker(marker).evaluate():
            found[canonicalize_name(package)] = version
    return found


def locked_all(name: str) -> list[str]:
    """Every requirement line of requirements/<name>.txt, whatever its marker."""
    text = (ROOT / "requirements" / f"{name}.txt").read_text()
    return re.findall(r"^[A-Za-z0-9][^ ]*==", text, re.M)


def requirement_lines(text: str) -> list[str]:
    """The requirement and hash lines of an exported file (its header and `# via` notes apart)."""
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_uv_lock_agrees_with_pyproject() -> None:
    result = subprocess.run([tool("uv"), "lock", "--check", "--offline"], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, "uv.lock is stale: run scripts/lock\n" + result.stderr


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_requirement_files_are_exported_from_uv_lock(name: str) -> None:
    result = subprocess.run(
        [tool("uv"), "export", "--frozen", "--offline", "--no-emit-project", *LOCKS[name],
         "--format", "requirements.txt"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    written = (ROOT / "requirements" / f"{name}.txt").read_text()
    assert requirement_lines(written) == requirement_lines(result.stdout), (
        f"requirements/{name}.txt is not what uv.lock exports: run scripts/lock")
    # Every package is pinned by version and hash (pip installs them with --require-hashes).
    blocks = re.split(r"\n(?=[^ #])", written)
    packages = [block for block in blocks if not block.startswith("#")]
    assert len(packages) == len(locked_all(name)) > 10
    unhashed = [block.split()[0] for block in packages if "==" not in block or "--hash=sha256:" not in block]
    assert not unhashed, unhashed


def test_every_floor_is_the_locked_version() -> None:
    """No lowest-versions job: the floors are tight instead. A range's lower bound (or an exact pin)
    is the version in the lock, which CI installs and tests."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = locked("test")
    wrong = []
    for line in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        req = Requirement(line)
        floors = [spec.version for spec in req.specifier if spec.operator in (">=", "==")]
        version = lock.get(canonicalize_name(req.name))
        if len(floors) != 1 or floors[0] != version:
            wrong.append(f"{line} (locked: {version})")
    assert not wrong, "raise these floors to the locked versions, then run scripts/lock: " + "; ".join(wrong)


def test_this_environment_is_what_the_lock_names() -> None:
    """CI (scripts/test through scripts/ensure-venv) installs requirements/test.txt and nothing else:
    each installed distribution is the locked version, and none is missing or extra."""
    lock = locked("test")
    installed = {canonicalize_name(dist.metadata["Name"]): dist.version
                 for dist in importlib.metadata.distributions()}
    differ = {name: (version, installed.get(name)) for name, version in lock.items()
              if installed.get(name) != version}
    assert not differ, f"installed versions differ from the lock (locked, installed): {differ}"
    extra = set(installed) - set(lock) - VENV_OWN
    assert not extra, f"installed but not in the lock: {sorted(extra)} (scripts/ensure-venv remakes .venv)"
    assert set(locked("app")) <= set(lock)
