"""The one-numpy check that make run and make test end with."""

from __future__ import annotations

import sys
from pathlib import Path

from hardware.onenumpy import describe, numpy_copies, problems


def fake_numpy(site: Path, version: str, meta: str = "dist-info") -> Path:
    pkg = site / "numpy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (site / f"numpy-{version}.{meta}").mkdir()
    return pkg


def test_one_copy_from_the_system_is_right(tmp_path: Path) -> None:
    system = tmp_path / "usr/lib/python3/dist-packages"
    fake_numpy(system, "1.24.2", "egg-info")
    copies = numpy_copies([str(tmp_path / "empty"), str(system)])
    assert [(c.version, c.path.parent) for c in copies] == [("1.24.2", system)]
    assert problems(copies, pi=True) == []
    assert describe(copies).startswith("numpy 1.24.2 from the system")


def test_a_second_numpy_shadowing_the_system_one_is_caught(tmp_path: Path) -> None:
    venv_site = tmp_path / "venv/lib/python3.11/site-packages"
    system = tmp_path / "usr/lib/python3/dist-packages"
    fake_numpy(venv_site, "2.3.4")
    fake_numpy(system, "1.24.2", "egg-info")
    copies = numpy_copies([str(venv_site), str(system), str(venv_site)])
    assert [c.version for c in copies] == ["2.3.4", "1.24.2"]  # each once, in import order
    [problem] = problems(copies, pi=True)
    assert problem.startswith("2 copies of numpy (2.3.4 in ") and "1.24.2 in " in problem
    assert problems([], pi=False)[0].startswith("no numpy can be imported")


def test_on_a_pi_numpy_from_the_virtualenv_is_wrong() -> None:
    copies = numpy_copies()
    assert len(copies) == 1  # this very test run has exactly one
    in_venv = sys.prefix != sys.base_prefix and str(copies[0].path).startswith(sys.prefix)
    assert copies[0].in_venv == in_venv
    assert problems(copies, pi=False) == []
    assert bool(problems(copies, pi=True)) == in_venv  # a PC's venv numpy would be wrong on a Pi
