"""Component data: the defaults a game ships, overlaid by an owner's edition file.

Each game keeps its boards, cards, tracks and prices in one JSON data file in
its package, every value marked with its source or as unverified.  An owner
of a physical copy corrects it without touching code by writing an *edition
file*: JSON with the same shape holding only what differs.  Objects are merged
key by key; any other value (a number, a list of cards) replaces the default
whole.

Where the companion looks for it: ``$COMPANION_EDITIONS/<game>.json``, else
``$XDG_CONFIG_HOME/table-companion/editions/<game>.json`` (by default
``~/.config/table-companion/editions/<game>.json``).  ``companion edition
GAME`` prints the data in force; ``companion edition GAME FILE`` checks a
file and says what is wrong with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import jsontext


def editions_dir() -> Path:
    explicit = os.environ.get("COMPANION_EDITIONS")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "table-companion" / "editions"


def edition_path(game_key: str) -> Path:
    return editions_dir() / f"{game_key}.json"


def merge(defaults: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Objects merge key by key; anything else in ``override`` replaces the default."""
    out: dict[str, Any] = dict(defaults)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


class EditionError(ValueError):
    """An edition file that cannot be used; ``problems`` lists every reason."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path = path
        self.problems = problems


def read_json_object(path: Path) -> dict[str, Any]:
    try:
        raw = jsontext.loads(path.read_bytes())
    except FileNotFoundError:
        raise EditionError(path, ["the file does not exist"]) from None
    except jsontext.JSONRefused as err:
        raise EditionError(path, [str(err)]) from None
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(path, [f"cannot be read: {err}"]) from None
    if not isinstance(raw, dict):
        raise EditionError(path, ["the file must hold one JSON object"])
    return raw
