"""Peak memory of one station photo upload, worst cases within the body limit.

Each case is a file made here (no downloads): the 249 KB PNG declaring
16000x16000 pixels, the largest photos of each kind the header check lets
through, each padded with junk to the 20 MB body limit, and an ordinary 12 MP
phone photo.  Each upload runs in a fresh process (``--one FILE``): the app is
built, one small photo is uploaded to warm every code path, then the case is
uploaded through the real form and the growth of the process's peak
resident memory (``VmHWM``, reset just before) is the number reported.  The alternative
measured in the same run: the same file decoded the way the upload did
before the header check (``cv2.imdecode`` first, size check after).

    python -m benchmarks.uploads [--no-write]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

#: the target: no upload within the body limit takes the server above this
LIMIT_MB = 100.0


def _status_mb(field: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def _reset_peak() -> None:
    """Start the peak (VmHWM) afresh from the current resident size (Linux);
    ``ru_maxrss`` cannot be reset, and it carries a parent's peak across exec."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    peak = _status_mb("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_declaring(width: int, height: int) -> bytes:
    """A valid grey PNG of ``width`` x ``height`` black pixels: tiny on disk."""
    packer = zlib.compressobj(9)
    row = b"\0" * (1 + width)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")


def _picture(width: int, height: int) -> Any:
    import cv2
    import numpy as np

    yy, xx = np.mgrid[0:height, 0:width]
    grey = ((xx // 7 + yy // 5) % 256).astype(np.uint8)
    return cv2.merge([grey, 255 - grey, grey // 2])


def _encode(ext: str, image: Any, params: list[int]) -> bytes:
    import cv2

    ok, data = cv2.imencode(ext, image, params)
    assert ok, ext
    return bytes(data.tobytes())


def cases(pad_to: int) -> list[tuple[str, bytes]]:
    """(what, file bytes) for every case."""
    import cv2

    def padded(data: bytes) -> bytes:
        return data + b"\0" * max(0, pad_to - len(data))

    big = _picture(4608, 3456)  # 15.9 MP: just under the 16 MP the header check allows
    prog = _picture(3456, 2592)  # 9.0 MP: a 4:4:4 progressive JPEG of that size fits the decode budget
    webp = _picture(4000, 3000)  # 12 MP
    phone = _picture(4032, 3024)
    jpeg444 = [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
    return [
        ("PNG declaring 16000x16000 (249 KB)", png_declaring(16000, 16000)),
        ("phone photo: JPEG 4032x3024", _encode(".jpg", phone, [cv2.IMWRITE_JPEG_QUALITY, 90])),
        ("JPEG 4608x3456 4:4:4, padded to 20 MB", padded(_encode(".jpg", big, jpeg444))),
        ("progressive JPEG 3456x2592 4:4:4, padded to 20 MB",
         padded(_encode(".jpg", prog, [*jpeg444, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]))),
        ("PNG 4608x3456 colour, padded to 20 MB", padded(_encode(".png", big, [cv2.IMWRITE_PNG_COMPRESSION, 1]))),
        ("WebP 4000x3000, padded to 20 MB", padded(_encode(".webp", webp, [cv2.IMWRITE_WEBP_QUALITY, 80]))),
    ]


def measure_one(path: Path, old_way: bool) -> str:
    """In this (fresh) process: the peak growth of one upload, as one line."""
    from companion.store import Store
    from companion.table import Room
    from web import WebConfig, create_app
    from web.station import MAX_PHOTO_PIXELS

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        config = WebConfig(room=Room(Store(Path(tmp) / "bench.sqlite3")), host_pin="1234", join_code="ABCD",
                           secret_key="k" * 40, testing=True)
        app = create_app(config)
        client = app.test_client()
        with client.session_transaction() as session:
            session["csrf"] = "bench"
        client.post("/host/login", data={"csrf": "bench", "pin": "1234"})
        made = client.post("/host/new", data={"csrf": "bench", "game": "world-of-waste", "seat.0": "Ada",
                                              "seat.1": "Ben", "start_seat": "0"})
        table_id = made.headers["Location"].rsplit("/", 1)[1]

        def upload(data: bytes) -> Any:
            form = {"csrf": "bench", "state_no": "0", "seat": "1", "photo": (io.BytesIO(data), path.name)}
            return client.post(f"/host/t/{table_id}/station/photo?csrf=bench", data=form,
                               content_type="multipart/form-data")

        warm = _encode(".jpg", _picture(800, 600), [])
        upload(warm)
        upload(warm)
        data = path.read_bytes()
        _reset_peak()
        before = _peak_mb()
        if old_way:  # the upload before the header check: decode, then look at the size
            import cv2
            import numpy as np

            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
            status = 400 if image is None or image.size > MAX_PHOTO_PIXELS else 200
        else:
            status = upload(data).status_code
        return f"{status} {_peak_mb() - before:.1f}"


def run(pad_to: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="companion-uploads-") as tmp:
        for what, data in cases(pad_to):
            path = Path(tmp) / "case.bin"
            path.write_bytes(data)
            row: dict[str, Any] = {"what": what, "bytes": len(data)}
            for key, old in (("now", False), ("decode_first", True)):
                cmd = [sys.executable, "-m", "benchmarks.uploads", "--one", str(path)] + (["--old"] if old else [])
                out = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
                line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else "? nan"
                status, mb = line.split()
                row[key] = float(mb)
                if not old:
                    row["status"] = int(status) if status.isdigit() else status
            rows.append(row)
    return rows


def report(rows: list[dict[str, Any]]) -> str:
    from benchmarks.report import commit, machine, table

    worst = max(r["now"] for r in rows)
    lines = [
        f"Machine: {machine()}; commit {commit()}.",
        "",
        "Peak resident memory added by one upload (fresh process, warmed up; Linux `VmHWM`, reset just before).",
        "Columns: the upload through the real form now (header checked before decoding, 16 MP and a",
        "64 MB decode budget at most), and the same file given to `cv2.imdecode` first, the way the",
        "upload read it before the header check (decoding only, no scan).",
        "",
        table(
            ["file", "size", "answer", "upload now (MB)", "decode first (MB)"],
            [[r["what"], f"{r['bytes'] / 1e6:.2f} MB", r["status"], f"+{r['now']:.0f}",
              f"+{r['decode_first']:.0f}"] for r in rows],
        ),
        "",
        f"Goal: under +{LIMIT_MB:.0f} MB for any upload within the body limit: "
        f"worst +{worst:.0f} MB, {'met' if worst < LIMIT_MB else 'NOT met'}.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.uploads")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--old", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    if args.one is not None:
        print(measure_one(args.one, args.old))
        return 0
    from benchmarks.report import write_section
    from web.station import MAX_PHOTO_BYTES

    rows = run(MAX_PHOTO_BYTES - 64 * 1024)  # room for the form's other fields
    text = report(rows)
    print(text)
    if not args.no_write:
        print(f"written to {write_section('uploads', 'Photo uploads: peak memory (benchmarks/uploads.py)', text)}")
    return 0 if max(r["now"] for r in rows) < LIMIT_MB else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
