"""Subcommands of the hardware package: ``scan``, ``tags`` and ``doctor``."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from companion.errors import Refusal
from companion.settings import port_from


def register(sub: Any) -> None:
    scan = sub.add_parser("scan", help="decode QR tags in image files and say which card each is")
    scan.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    scan.add_argument("--game", help="map tags to this game's cards (default: the game each tag names)")
    scan.add_argument("--json", action="store_true", help="print JSON (one object per image)")
    scan.add_argument(
        "--spread",
        action="store_true",
        help="read a full-resolution still of spread cards (every decoder, then overlapping tiles), "
        "as for a World of Waste station",
    )
    scan.add_argument(
        "--decoders", default="zxing-cpp,pyzbar", help="decoders in order (zxing-cpp,pyzbar,opencv)"
    )
    scan.set_defaults(handler=cmd_scan)

    tags = sub.add_parser("tags", help="print a sheet of QR tags: one per physical card of a game")
    tags.add_argument("game", metavar="GAME", help="a game key (companion games)")
    tags.add_argument("--out", type=Path, required=True, help="the SVG file to write (more pages: FILE-2.svg ...)")
    tags.add_argument("--code-mm", type=float, default=None, help="side of each code in mm (default: firmware_notes/camera.md)")
    tags.set_defaults(handler=cmd_tags)

    doctor = sub.add_parser(
        "doctor",
        help="what camera and dice inputs are attached, and which would be used; the store's health",
        description="Say what hardware was found, which inputs would be used and why, and open every "
        "configured device; then the store's health, free space and backups.  Exit status: 0 all well, "
        "1 a configured device is missing or broken, or the store is damaged or read-only "
        "(listed under problems), 2 a setting is misspelt.",
    )
    doctor.add_argument("--json", action="store_true")
    doctor.add_argument("--quick", action="store_true", help="do not open devices, only look for them")
    doctor.set_defaults(handler=cmd_doctor)


# scan -----------------------------------------------------------------------------
#: what reading a photo needs beyond the runtime's packages (pyproject.toml's
#: ``vision`` extra; on a Raspberry Pi the same from apt, beside Picamera2)
VISION_MODULES = (("numpy", "numpy"), ("cv2", "OpenCV (cv2)"))
VISION_HINT = ("it is in the vision extra: make run installs it, or .venv/bin/pip install -e '.[vision]'; "
               "on a Raspberry Pi: sudo apt install python3-numpy python3-opencv")


def vision_missing() -> str | None:
    """What of the ``vision`` extra cannot be imported, and how to install it
    (``None``: all there)."""
    for module, label in VISION_MODULES:
        try:
            importlib.import_module(module)
        except ImportError as err:
            why = "" if isinstance(err, ModuleNotFoundError) and err.name == module else f" ({err})"
            return f"{label} cannot be imported{why}: {VISION_HINT}"
    return None


def cmd_scan(args: argparse.Namespace) -> int:
    missing = vision_missing()
    if missing is not None:  # the decoders and the image reader import numpy and OpenCV
        print(f"companion scan: {missing}", file=sys.stderr)
        return 2
    from companion.tags import AnyGameTags, CardRegistry, TagError
    from hardware.decoders import Scanner, probe_decoders
    from hardware.frames import load_gray
    from hardware.spread import read_all

    names = [n.strip() for n in str(args.decoders).split(",") if n.strip()]
    decoders, report = probe_decoders(names)
    if not decoders:
        for line in report:
            print(f"companion scan: {line.name}: {line.why}", file=sys.stderr)
        return 2
    scanner = Scanner(decoders, thorough=True)
    try:
        tags: AnyGameTags | CardRegistry = (
            CardRegistry.for_game(args.game) if args.game else AnyGameTags()
        )
    except (Refusal, TagError) as err:
        print(f"companion scan: {err}", file=sys.stderr)
        return 2
    results: list[dict[str, Any]] = []
    status = 0
    for path in args.images:
        entry: dict[str, Any] = {"image": str(path), "codes": [], "error": None}
        try:
            gray = load_gray(path)
        except OSError as err:
            entry["error"] = str(err)
            results.append(entry)
            status = 2
            continue
        started = time.perf_counter()
        codes = read_all(gray, decoders) if args.spread else scanner.read(gray)
        entry["ms"] = round((time.perf_counter() - started) * 1000, 2)
        if args.spread:  # left to right, top to bottom, as a station is laid out
            codes = sorted(codes, key=lambda c: (round(c.center[1] / 200), c.center[0]))
        card_ids: list[str] = []
        for code in codes:
            reading = tags.read(code.text)
            if args.game and reading.card is not None and reading.card.card_id not in card_ids:
                card_ids.append(reading.card.card_id)
            item = code.to_json()
            item["card"] = (
                {
                    "game": reading.card.game,
                    "kind": reading.card.kind,
                    "name": reading.card.name,
                    "copy": reading.card.copy,
                    "card_id": reading.card.card_id,
                }
                if reading.card is not None
                else None
            )
            item["notice"] = reading.notice or None
            entry["codes"].append(item)
        if args.game:
            # the game's cards only, each once: what a station command takes
            entry["card_ids"] = card_ids
            entry["notices"] = [item["notice"] for item in entry["codes"] if item["notice"]]
        results.append(entry)
    if args.json:
        json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        for entry in results:
            if entry["error"]:
                print(f"{entry['image']}: {entry['error']}")
                continue
            print(f"{entry['image']}: {len(entry['codes'])} code(s) in {entry['ms']} ms")
            for item in entry["codes"]:
                card = item["card"]
                what = f"{card['game']} {card['card_id']} ({card['name']} #{card['copy']})" if card else item["notice"]
                print(f"  {item['text']!r} [{item['decoder']}, {item['how']}]: {what}")
            if "card_ids" in entry:
                print(f"  {args.game} card ids: {', '.join(entry['card_ids']) or 'none'}")
    return status


# tags -----------------------------------------------------------------------------
def cmd_tags(args: argparse.Namespace) -> int:
    from companion.edition import EditionError
    from companion.games import get_game
    from companion.tags import CardRegistry, SheetLayout, TagError, write_sheets

    try:
        game = get_game(args.game)
        registry = CardRegistry(game.key, game.card_kinds(game.load_edition()))
    except (Refusal, TagError, EditionError) as err:
        print(f"companion tags: {err}", file=sys.stderr)
        return 2
    if len(registry) == 0:
        print(f"companion tags: {game.title} has no tagged cards", file=sys.stderr)
        return 2
    layout = SheetLayout() if args.code_mm is None else SheetLayout(code_mm=float(args.code_mm))
    if not 10 <= layout.code_mm <= 150:
        print("companion tags: --code-mm must be between 10 and 150", file=sys.stderr)
        return 2
    try:
        written = write_sheets(registry, args.out, layout, game.title)
    except OSError as err:
        print(f"companion tags: {err}", file=sys.stderr)
        return 2
    print(
        f"{game.title}: {len(registry)} tags ({layout.code_mm:g} mm codes, {layout.per_page()} per A4 page) in "
        + ", ".join(str(p) for p in written)
        + ". Print at 100 % (no 'fit to page')."
    )
    return 0


# doctor ---------------------------------------------------------------------------
def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.backup import render_store_report, store_report
    from companion.store import default_db_path
    from hardware.detect import doctor_report, render_report
    from hardware.runtime import HardwareConfig

    try:
        config = HardwareConfig.from_env()
    except ValueError as err:
        print(f"companion doctor: {err}", file=sys.stderr)
        return 2
    try:  # serve would stop on it (and the service restart over and over)
        port_from(os.environ.get("COMPANION_PORT"))
    except ValueError as err:
        print(f"companion doctor: COMPANION_PORT: {err}", file=sys.stderr)
        return 2
    report = doctor_report(config, probe=not args.quick)
    report["store"] = store = store_report(default_db_path())
    if str(store["health"]).startswith(("damaged", "read-only")):
        report["problems"].append(f"store: {store['path']} is {store['health']}"
                                  + (f" ({store['why']})" if store.get("why") else ""))
    if args.json:
        json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print(render_report(report))
        print(render_store_report(store))
    return 1 if report["problems"] else 0
