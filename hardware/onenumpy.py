"""One numpy in the process: the check ``make run`` and ``make test`` end with.

On a Raspberry Pi, Picamera2 and its compiled helpers (simplejpeg, and any
Debian-packaged extension such as python3-pywt) are built against apt's
numpy.  A second numpy installed by pip into the virtualenv shadows it, and
importing them then fails (``numpy.dtype size changed``), so the camera is
silently lost.  :func:`numpy_copies` lists every numpy the interpreter could
find on ``sys.path``; ``python -m hardware.onenumpy --pi`` fails when there
is more than one, or when the one loaded is not the system's.

Run by the Makefile after every install; ``companion doctor`` reports the
same facts.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NumpyCopy:
    path: Path  # the package folder (.../site-packages/numpy)
    version: str  # from its dist-info / egg-info, or "?"

    @property
    def in_venv(self) -> bool:
        return str(self.path).startswith(sys.prefix) and sys.prefix != sys.base_prefix


def _version_near(package_dir: Path) -> str:
    parent = package_dir.parent
    for pattern in ("numpy-*.dist-info", "numpy-*.egg-info"):
        for meta in sorted(parent.glob(pattern)):
            return meta.name.removeprefix("numpy-").split(".dist-info")[0].split(".egg-info")[0].split("-py")[0]
    return "?"


def numpy_copies(search_path: Sequence[str] | None = None) -> list[NumpyCopy]:
    """Every ``numpy`` package folder on ``search_path`` (default
    ``sys.path``), in import order: the first one is the one imported."""
    seen: set[Path] = set()
    copies: list[NumpyCopy] = []
    for entry in sys.path if search_path is None else search_path:
        folder = Path(entry or ".") / "numpy"
        if not (folder / "__init__.py").is_file():
            continue
        real = folder.resolve()
        if real in seen:
            continue
        seen.add(real)
        copies.append(NumpyCopy(folder, _version_near(folder)))
    return copies


def problems(copies: Sequence[NumpyCopy], pi: bool) -> list[str]:
    """What is wrong with these copies (empty: all is well)."""
    if not copies:
        return ["no numpy can be imported (on a Pi: apt install python3-numpy; elsewhere: make run)"]
    found = "; ".join(f"{c.version} in {c.path.parent}" for c in copies)
    if len(copies) > 1:
        return [
            f"{len(copies)} copies of numpy ({found}): the first shadows the others and extensions "
            "built against another one fail to import"
        ]
    if pi and copies[0].in_venv:
        return [
            f"numpy {copies[0].version} was installed into the virtualenv ({copies[0].path.parent}); on a "
            "Raspberry Pi it must be apt's python3-numpy, the one Picamera2 is built against"
        ]
    return []


def describe(copies: Sequence[NumpyCopy]) -> str:
    if not copies:
        return "numpy: none"
    first = copies[0]
    where = "virtualenv" if first.in_venv else "system"
    more = f" (and {len(copies) - 1} more copies!)" if len(copies) > 1 else ""
    return f"numpy {first.version} from the {where} ({first.path.parent}){more}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.onenumpy", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pi", action="store_true", help="a Raspberry Pi: numpy must be the system's (apt)")
    args = parser.parse_args(argv)
    copies = numpy_copies()
    issues = problems(copies, args.pi)
    if issues:
        for issue in issues:
            print(f"one numpy: {issue}", file=sys.stderr)
        print("one numpy: fix it with `make clean run` (docs/raspberry-pi.md)", file=sys.stderr)
        return 1
    if importlib.util.find_spec("cv2") is None:
        print("one numpy: OpenCV (cv2) cannot be imported", file=sys.stderr)
        return 1
    print(f"one numpy: {describe(copies)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
