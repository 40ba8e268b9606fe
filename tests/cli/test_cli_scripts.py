"""The setup scripts (issue 9, "a new user's first hour"): the two locks agree, `./scripts/serve` installs
the runtime lock only, the apt helper waits for a held lock (bounded) instead of failing, `.ci/run` lists
its system packages one per line, and the chromium rule of the browser tests."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests import chromium

ROOT = Path(__file__).resolve().parents[2]


def pins(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            out[re.sub(r"[-_.]+", "-", name).lower()] = version
    return out


def test_runtime_lock_is_the_runtime_part_of_the_full_lock() -> None:
    full, runtime = pins(ROOT / "requirements.lock"), pins(ROOT / "requirements-runtime.lock")
    assert runtime and all(full.get(name) == version for name, version in runtime.items())
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in deps:
        name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=~! ]", dep, maxsplit=1)[0]).lower()
        assert name in runtime, f"{name} (pyproject dependency) missing from requirements-runtime.lock: run ./scripts/lock"
    for tool in ("pytest", "playwright", "ruff", "hypothesis", "open-spiel", "scipy", "psycopg"):
        assert tool not in runtime, tool
    assert all(v for v in full.values()) and all(v for v in runtime.values())  # every line pinned


def test_the_command_line_and_the_server_import_only_the_runtime_lock() -> None:
    """`./scripts/serve` installs the runtime lock only: every installed distribution that importing the
    command line and the server loads (beyond what the interpreter loads at start-up) must be in it."""
    def loaded(code: str) -> set[str]:
        run = subprocess.run([sys.executable, "-c", code + "; print(chr(10).join(sys.modules))"],
                             capture_output=True, text=True, check=True)
        return {m.split(".")[0] for m in run.stdout.split()}

    extra = loaded("import sys, spacetable.cli, spacetable.server.app") - loaded("import sys")
    owners = importlib.metadata.packages_distributions()
    dists = {re.sub(r"[-_.]+", "-", d).lower() for m in extra for d in owners.get(m, [])} - {"spacetable"}
    runtime = pins(ROOT / "requirements-runtime.lock")
    assert dists and sorted(d for d in dists if d not in runtime) == []


def test_serve_installs_the_runtime_lock_and_setup_shows_progress() -> None:
    serve = (ROOT / "scripts" / "serve").read_text()
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "./scripts/setup runtime" in serve
    assert "requirements-runtime.lock" in setup and "--progress-bar on" in setup and 'echo "setup: installing' in setup
    assert " -q -r" not in setup  # the big install is not silent
    for script in ("setup", "serve", "test", "lock", "lib/apt.sh"):
        subprocess.run(["bash", "-n", str(ROOT / "scripts" / script)], check=True)
    subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], check=True)


def test_ci_lists_its_apt_packages_one_per_line() -> None:
    text = (ROOT / ".ci" / "run").read_text()
    # the array runs to the first line that closes it; a comment may hold parentheses of its own
    block = text.split("APT_PACKAGES=(", 1)[1].split("\n)", 1)[0]
    packages = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.split("#", 1)[0].strip()]
    assert "chromium" in packages and "python3-venv" in packages and all(" " not in p for p in packages)
    assert 'apt_install "${APT_PACKAGES[@]}"' in text and "./scripts/test" in text


def _fake_apt(tmp_path: Path, busy: int) -> Path:
    """An apt-get that reports a held lock ``busy`` times, then succeeds, logging each call."""
    fake = tmp_path / "apt-get"
    fake.write_text(f"""#!/usr/bin/env bash
n=$(cat {tmp_path}/count 2>/dev/null || echo 0); echo $((n + 1)) > {tmp_path}/count
echo "$*" >> {tmp_path}/calls
if [ "$n" -lt {busy} ]; then
  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100
fi
""")
    fake.chmod(0o755)
    return fake


def _apt_run(tmp_path: Path, busy: int, wait: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "APT_GET": str(_fake_apt(tmp_path, busy)), "SPACETABLE_APT_WAIT": str(wait),
           "SPACETABLE_APT_POLL": "0"}
    script = f"""
. {ROOT}/scripts/lib/apt.sh
apt_as_root() {{ "$@"; }}   # the test runs unprivileged
apt_run install -y chromium
"""
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60)


def test_apt_waits_for_a_held_lock_then_installs(tmp_path: Path) -> None:
    run = _apt_run(tmp_path, busy=3, wait=60)
    assert run.returncode == 0, run.stderr
    assert "another apt/dpkg process holds the lock; waiting" in run.stderr
    assert (tmp_path / "count").read_text().strip() == "4"


def test_apt_gives_up_after_the_bounded_wait(tmp_path: Path) -> None:
    run = _apt_run(tmp_path, busy=1000, wait=0)
    assert run.returncode == 100 and "still holds the lock" in run.stderr


def test_apt_errors_other_than_the_lock_are_not_retried(tmp_path: Path) -> None:
    fake = tmp_path / "apt-get"
    fake.write_text(f"#!/usr/bin/env bash\necho x >> {tmp_path}/calls\necho 'E: Unable to locate package nope' >&2\nexit 100\n")
    fake.chmod(0o755)
    env = {**os.environ, "APT_GET": str(fake), "SPACETABLE_APT_POLL": "0"}
    script = f'. {ROOT}/scripts/lib/apt.sh\napt_as_root() {{ "$@"; }}\napt_run install nope'
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 100 and "Unable to locate package" in run.stderr
    assert (tmp_path / "calls").read_text().count("x") == 1


def test_browser_tests_skip_outside_ci_and_fail_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(chromium, "CHROMIUM", str(tmp_path / "no-chromium"))
    assert chromium.missing() is not None
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        chromium.require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="under CI=true"):
        chromium.require_chromium()


def test_missing_chromium_is_one_line_in_a_real_run(tmp_path: Path) -> None:
    env = {**os.environ, "SPACETABLE_CHROMIUM": str(tmp_path / "none"), "CI": ""}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/arena/test_renderer.py"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    lines = [line for line in run.stdout.splitlines() if "chromium" in line]
    assert run.returncode in (0, 5) and len(lines) == 1 and "browser tests skipped" in lines[0], run.stdout


def _fake_python(folder: Path, name: str, prelude: str) -> Path:
    """An interpreter that is this one with ``prelude`` run before the code it is given with ``-c``."""
    fake = folder / name
    fake.write_text(f'#!/usr/bin/env bash\n[ "$1" = -c ] || exit 2\nexec {sys.executable} -c "{prelude}\n$2"\n')
    fake.chmod(0o755)
    return fake


def _pick(candidates: list[str], python: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    if python is not None:
        env["PYTHON"] = python
    script = f'. {ROOT}/scripts/lib/python.sh\npick_python "$@"'
    run = subprocess.run(["bash", "-c", script, "pick", *candidates], capture_output=True, text=True, env=env,
                         timeout=60, check=True)
    return run.stdout.strip()


def test_setup_takes_the_first_interpreter_that_is_recent_and_makes_virtual_environments(tmp_path: Path) -> None:
    """``scripts/setup`` makes a new .venv with the system's /usr/bin/python3 before python3 from PATH
    (``scripts/lib/python.sh``, docs/server.md "The interpreter"): a candidate counts only when it is Python 3.11
    or newer and has venv and ensurepip (Debian's python3-venv); ``PYTHON`` overrides the choice."""
    old = _fake_python(tmp_path, "old", "import sys; sys.version_info = (3, 10, 12)")
    bare = _fake_python(tmp_path, "bare", "import sys; sys.modules['ensurepip'] = None")
    good = _fake_python(tmp_path, "good", "import sys")
    also = _fake_python(tmp_path, "also", "import sys")
    missing = str(tmp_path / "missing")
    assert _pick([missing, str(old), str(bare), str(good), str(also)]) == str(good)
    assert _pick([str(good), str(also)]) == str(good)
    # nothing qualifies: the last candidate, whose own error then says why
    assert _pick([str(old), str(bare)]) == str(bare)
    assert _pick([str(good)], python="/opt/my/python") == "/opt/my/python"
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "pick_python /usr/bin/python3 python3" in setup
