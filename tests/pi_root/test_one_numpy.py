"""The numpy clash, reproduced: a Debian-packaged compiled numpy extension
(python3-pywt, built against apt's numpy like Picamera2's simplejpeg) seen
through a virtualenv with system site packages.

It imports in the virtualenv that the project's Raspberry Pi path made
(`make run` with COMPANION_PI=1), and fails in one made the naive way (pip
installing OpenCV from PyPI, which brings a second numpy that shadows apt's)
where apt's numpy is 1.x (Bookworm: OpenCV's wheels need numpy 2).  Where
apt's numpy is already 2.x (Trixie) the naive way adds no second numpy and
nothing clashes today; the test checks that instead of pretending otherwise.

Needs apt, a Debian python3 and minutes of pip: it runs only inside the arm64
proof (benchmarks/pi_in_root.sh sets COMPANION_PI_ROOT=1), never in `make test`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("COMPANION_PI_ROOT") != "1",
    reason="the numpy clash needs an apt root (make pi-proof / benchmarks/pi_in_root.sh)",
)

REPO = Path(__file__).resolve().parents[2]
IMPORT = "import pywt, numpy, cv2; print(numpy.__version__, numpy.__file__)"


def python(venv: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, timeout=600)


def test_the_project_pi_venv_has_one_numpy_and_the_debian_extension_imports() -> None:
    venv = Path(sys.prefix)
    assert (venv / "pyvenv.cfg").read_text().count("include-system-site-packages = true") == 1
    result = python(venv, IMPORT)
    assert result.returncode == 0, result.stderr
    assert "/usr/lib/python3/dist-packages/numpy" in result.stdout
    check = subprocess.run([str(venv / "bin" / "python"), "-m", "hardware.onenumpy", "--pi"],
                           capture_output=True, text=True, cwd=REPO, timeout=300)
    assert check.returncode == 0, check.stderr


def apt_numpy_major() -> int:
    found = subprocess.run(["/usr/bin/python3", "-c", "import numpy; print(numpy.__version__)"],
                           capture_output=True, text=True, timeout=600)
    assert found.returncode == 0, found.stderr
    return int(found.stdout.split(".")[0])


def test_a_naive_venv_shadows_apt_numpy_and_the_extension_breaks(tmp_path: Path) -> None:
    naive = tmp_path / "naive"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(naive)], check=True, timeout=600)
    # what `pip install -e .` did before the Pi path: OpenCV (and so numpy) from PyPI
    pip = subprocess.run([str(naive / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                          "-e", f"{REPO}[vision]"], capture_output=True, text=True, timeout=3000)
    assert pip.returncode == 0, pip.stderr[-2000:]
    result = python(naive, IMPORT)
    check = subprocess.run([str(naive / "bin" / "python"), "-m", "hardware.onenumpy", "--pi"],
                           capture_output=True, text=True, cwd=REPO, timeout=300)
    if apt_numpy_major() < 2:
        # Bookworm: OpenCV's wheel needs numpy 2, pip puts it in the venv over apt's 1.x
        assert result.returncode != 0, f"expected the clash, got: {result.stdout}"
        assert "numpy" in result.stderr.lower()
        # and the check make run ends with catches it
        assert check.returncode == 1 and "copies of numpy" in check.stderr, check.stderr
    else:
        # Trixie: apt's numpy 2.x already meets the wheel's need: no second numpy, no clash (today)
        assert result.returncode == 0, result.stderr
        assert "/usr/lib/python3/dist-packages/numpy" in result.stdout, result.stdout
        assert check.returncode == 0, check.stderr
