"""The Makefile's install paths: runtime vs dev, the Pi path (one numpy),
the venv check, and the 32-bit stop.  `make -n` shows what would run; the
venv check and the platform stop run for real on throwaway paths."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def make(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **(env or {})}
    return subprocess.run(["make", "--no-print-directory", "-C", str(REPO), *args], capture_output=True, text=True,
                          env=full, timeout=300)


def test_make_run_installs_the_runtime_lock_and_make_test_the_dev_lock(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    run = make("-n", "run", f"VENV={venv}", "RUN_APT=", env={"COMPANION_PI": "0"}).stdout
    assert "install  --require-hashes -r locks/run-vision.txt" in run and "locks/dev" not in run
    assert "install --no-deps --no-build-isolation -e ." in run  # the companion itself, nothing more
    assert "upgrade" not in run  # nothing newer than the lock
    test = make("-n", "test", f"VENV={venv}", "RUN_APT=", "TEST_APT=", env={"COMPANION_PI": "0"}).stdout
    assert "install  --require-hashes -r locks/dev-vision.txt" in test


def test_on_a_pi_numpy_and_opencv_come_from_apt_and_pip_is_held_to_it(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    out = make("-n", "run-deps", f"VENV={venv}", env={"COMPANION_PI": "1"}).stdout
    assert "for p in libzbar0 python3-numpy python3-opencv;" in out
    assert "python3-picamera2 python3-lgpio" in out  # installed where apt has them (Raspberry Pi OS)
    assert "-m venv --system-site-packages" in out
    # the Pi's lock: no OpenCV or numpy from PyPI, and pip held to apt's numpy
    assert f"install -c {venv}/one-numpy.txt --require-hashes -r locks/run.txt" in out
    assert "hardware.onenumpy --pi" in out
    test = make("-n", "test-deps", f"VENV={venv}", "TEST_APT=", env={"COMPANION_PI": "1"}).stdout
    assert f"install -c {venv}/one-numpy.txt --require-hashes -r locks/dev.txt" in test


def test_a_pi_venv_without_system_site_packages_is_rebuilt(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    subprocess.run(["python3", "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    result = make("venv", f"VENV={venv}", env={"COMPANION_PI": "1"})
    assert f"Rebuilding {venv}: it must see the system's packages on this machine" in result.stdout
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    # (here apt's numpy is not there, so the Pi path then stops with that message)
    if result.returncode != 0:
        assert "python3-numpy / python3-opencv cannot be imported" in result.stderr
    again = make("venv", f"VENV={venv}", env={"COMPANION_PI": "0"})
    assert "it must not see the system's packages" in again.stdout


def test_32_bit_stops_at_once_with_a_clear_message(tmp_path: Path) -> None:
    fake = tmp_path / "dpkg"
    fake.write_text("#!/bin/sh\necho armhf\n")
    fake.chmod(0o755)
    result = make("run-deps", env={"PATH": f"{tmp_path}:{os.environ['PATH']}"})
    assert result.returncode != 0
    assert "needs a 64-bit system: this one is armhf (32-bit)" in result.stderr
    assert "Raspberry Pi OS (64-bit)" in result.stderr
    assert "Installing" not in result.stdout  # nothing was installed first


def test_a_library_renamed_t64_counts_as_installed(tmp_path: Path) -> None:
    """Debian 13 (Trixie) ships libzbar0 as libzbar0t64: `make run` must not
    run apt at every start for it (seen in the Trixie root of the arm64 proof)."""
    calls = tmp_path / "apt-calls"
    (tmp_path / "dpkg").write_text('#!/bin/sh\n[ "$2" = libzbar0t64 ] && echo "Status: install ok installed" '
                                   "&& exit 0\nexit 1\n")
    (tmp_path / "apt-get").write_text(f'#!/bin/sh\necho "apt-get $*" >> {calls}\n')
    for tool in ("dpkg", "apt-get"):
        (tmp_path / tool).chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ['PATH']}", "COMPANION_PI": "0"}
    there = make("apt-run", "RUN_APT=libzbar0", "RUN_APT_IF_AVAILABLE=", env=env)
    assert there.returncode == 0, there.stderr
    assert "Installing" not in there.stdout and not calls.exists()
    # a library there under neither name is still installed
    absent = make("apt-run", "RUN_APT=libfoo0", "RUN_APT_IF_AVAILABLE=", env=env)
    assert "Installing system packages: libfoo0" in absent.stdout
    assert "apt-get install -y -qq --no-install-recommends libfoo0" in calls.read_text()
