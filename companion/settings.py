"""The companion's settings: one config file, environment variables on top.

Every setting is a ``COMPANION_*`` name.  The config file (``$COMPANION_CONFIG``,
else ``~/.config/table-companion/companion.conf``) holds ``NAME=value`` lines;
``companion`` reads it at start and sets each name that the environment does
not already set, so an environment variable (and a command-line flag, which
beats both) still overrides the file.  ``companion install-service`` writes
the file with every setting and its default, commented out.

:data:`SETTINGS` is the one list of names, defaults and meanings: the file
template, ``serve --help`` and ``companion doctor`` are made from it.
"""

from __future__ import annotations

import os
import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Setting:
    name: str  # without the COMPANION_ prefix
    default: str  # as written in the file; "" = none
    meaning: str

    @property
    def variable(self) -> str:
        return f"COMPANION_{self.name}"


SETTINGS: tuple[Setting, ...] = (
    Setting("HOST", "0.0.0.0", "address to listen on (0.0.0.0: the whole LAN)"),
    Setting("PORT", "8000", "TCP port of the dashboard (1-65535)"),
    Setting("MAX_CONNECTIONS", "100", "open connections at most (each live page holds one); past it a 503"),
    Setting("PUBLIC_URL", "", "fixed address for the join QR and printed links (default: from each request)"),
    Setting("PIN", "", "the host PIN (default: a random one at each start, printed)"),
    Setting("JOIN_CODE", "", "the code phones join with (default: random at each start, printed)"),
    Setting("DB", "", "the SQLite file (default ~/.local/share/table-companion/companion.sqlite3)"),
    Setting("SEEDS", "", "the rule texts for citations (default ../shared/seeds beside the repository)"),
    Setting("EDITIONS", "", "folder of edition files (default ~/.config/table-companion/editions)"),
    Setting("CAMERA", "auto", "auto, picamera2, v4l2[:/dev/videoN], folder:PATH, sim or none"),
    Setting("CAMERA_SIZE", "1280x720", "frame size the live scanner reads, WIDTHxHEIGHT"),
    Setting("CAMERA_FOCUS_CM", "45", "lens-to-table distance the focus is fixed at (cm), or auto"),
    Setting("CAMERA_MAX_EXPOSURE_MS", "12", "longest exposure per frame (ms), so moving hands stay sharp"),
    Setting("SCAN_FPS", "15", "frames per second for folder: and the simulated camera"),
    Setting("DEBOUNCE", "3/5", "a card counts when seen in k of the last n frames"),
    Setting("DEBOUNCE_LEAVE_S", "1.0", "seconds a card must be gone before it can count again"),
    Setting("DECODERS", "zxing-cpp,pyzbar", "QR decoders in order: zxing-cpp, pyzbar, opencv"),
    Setting("DICE", "auto", "auto, button[:BCM], serial:PORT, sim-tower or none"),
    Setting("TOWER_USB", "", "extra USB VID:PID pairs of dice towers, comma-separated (e.g. 1209:7d00)"),
    Setting("LED", "", "BCM pin of the ready-to-roll LED, or none"),
    Setting("BUTTON_SETTLE_MS", "50", "quiet time before a new button press counts"),
    Setting("SERIAL_BAUD", "115200", "baud rate of the dice tower"),
    Setting("IDLE_DAYS", "7", "days without a move after which an unfinished table rests: not loaded at start, "
            "listed on the host page and loaded when opened"),
    Setting("PI", "", "1: treat this machine as a Raspberry Pi, 0: as any other (default: detected)"),
    Setting("LANGUAGE", "en", "a new table's language (its screen's, and a phone's that chose none and whose "
            "browser asks for none the companion speaks): en or fr"),
    Setting("LOCATION", "", "where the table is, as plays saved to BG Stats name it (default: none)"),
)

KNOWN = {s.variable for s in SETTINGS} | {"COMPANION_CONFIG"}
_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


class ConfigError(ValueError):
    """A config file that cannot be read as written."""


def config_path(environ: MutableMapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    explicit = env.get("COMPANION_CONFIG")
    if explicit:
        return Path(explicit)
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "table-companion" / "companion.conf"


def parse_config(text: str, where: str = "config") -> tuple[dict[str, str], list[str]]:
    """``NAME=value`` lines as a dict, and warnings (unknown names).
    Blank lines and ``#`` comments are skipped; a value may be quoted."""
    values: dict[str, str] = {}
    warnings: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise ConfigError(f"{where} line {number}: write NAME=value, not {line[:60]!r}")
        name, value = match.group(1), match.group(2).strip()
        if not name.startswith("COMPANION_"):
            raise ConfigError(f"{where} line {number}: {name} is not a companion setting (they start with COMPANION_)")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if name not in KNOWN:
            warnings.append(f"{where} line {number}: {name} is not a setting this companion knows; set anyway")
        values[name] = value
    return values, warnings


def load_config(environ: MutableMapping[str, str] | None = None) -> tuple[Path, dict[str, str], list[str]]:
    """Read the config file (if there is one) into ``environ`` under the
    names it does not set yet.  Returns the path, the values taken from the
    file, and warnings.  ``ConfigError`` for a file that cannot be used."""
    env = os.environ if environ is None else environ
    path = config_path(env)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return path, {}, []
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot be read ({err})") from None
    values, warnings = parse_config(text, str(path))
    taken: dict[str, str] = {}
    for name, value in values.items():
        if name not in env:
            env[name] = value
            taken[name] = value
    return path, taken, warnings


def template() -> str:
    """The config file as ``install-service`` writes it: every setting with
    its default, commented out."""
    lines = [
        "# Table Companion settings: NAME=value, one per line (docs/raspberry-pi.md).",
        "# Every line below shows a default; remove the '#' to change it.",
        "# An environment variable of the same name, or a command-line flag, overrides this file.",
        "",
    ]
    for s in SETTINGS:
        lines.append(f"# {s.meaning}")
        lines.append(f"#{s.variable}={s.default}")
    return "\n".join(lines) + "\n"


def help_table() -> str:
    """The settings as lines for ``--help``."""
    return "\n".join(f"  {s.variable:<34} {s.meaning}" + (f" [{s.default}]" if s.default else "") for s in SETTINGS)


def port_from(raw: str | None, default: int = 8000) -> int:
    """A TCP port from ``COMPANION_PORT`` or ``--port``; ``ValueError`` naming
    what was given."""
    if raw is None or not str(raw).strip():
        return default
    text = str(raw).strip()
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise ValueError(f"port {text!r} is not a whole number from 1 to 65535 (0: any free port)")
    return int(text)


#: the default of ``COMPANION_IDLE_DAYS``
IDLE_DAYS = 7.0


def idle_days_setting(environ: MutableMapping[str, str] | None = None) -> float:
    """``COMPANION_IDLE_DAYS`` (days, may be fractional; 0: load no table at
    start), else 7.  A value that is not a number is the default."""
    env = os.environ if environ is None else environ
    raw = env.get("COMPANION_IDLE_DAYS", "").strip()
    try:
        days = float(raw) if raw else IDLE_DAYS
    except ValueError:
        return IDLE_DAYS
    return days if days >= 0 else IDLE_DAYS  # NaN is not >= 0


def language_setting(environ: MutableMapping[str, str] | None = None) -> str:
    """``COMPANION_LANGUAGE`` (``en``, ``fr``), else English; a language the
    companion does not speak is English."""
    from companion.languages import SOURCE, known

    env = os.environ if environ is None else environ
    return known(env.get("COMPANION_LANGUAGE", "")) or SOURCE


def location_setting(environ: MutableMapping[str, str] | None = None) -> str:
    """``COMPANION_LOCATION``: where the table is, one line of at most 80 characters."""
    env = os.environ if environ is None else environ
    return " ".join(env.get("COMPANION_LOCATION", "").split())[:80]
