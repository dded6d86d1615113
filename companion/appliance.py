"""The Pi as an appliance: ``companion install-service`` and ``install-kiosk``.

``install-service`` writes a systemd unit that starts ``companion serve`` at
boot once the network is online, restarts it on failure, runs it as the
installing user with the GPIO/camera/serial groups, logs to the journal, and
reads its settings from the one config file (written with every default,
commented out, if there is none yet).  Where avahi-daemon is installed it also
announces the dashboard over mDNS (``_http._tcp``; avahi already announces
``<hostname>.local``).

``install-kiosk`` puts the table screen on the Pi's HDMI: a launcher script
that waits for the companion, starts Chromium in kiosk mode on
``http://localhost:PORT/?kiosk=1`` (no pointer, no infobars) and starts it
again whenever it closes or crashes, run from the desktop's autostart
(labwc on Raspberry Pi OS Bookworm and Trixie; an XDG autostart entry for
X11 sessions).  Screen blanking is turned off.

Both take ``--root`` (install below another directory: tests, images) and
``--print`` (show what would be written, write nothing).
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import os
import pwd
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.settings import port_from, template

SERVICE = "table-companion"
GROUPS = ("video", "gpio", "dialout", "render")  # camera, GPIO (lgpio), dice tower, libcamera's ISP
REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Account:
    name: str
    group: str
    home: Path


@dataclass(frozen=True)
class Planned:
    path: Path  # where it goes (below --root)
    text: str
    mode: int = 0o644
    keep: bool = False  # never overwrite (the user's config file)


def register(sub: Any) -> None:
    svc = sub.add_parser("install-service", help="start the companion at boot (systemd unit, config file, mDNS)",
                         description=__doc__.split("\n\n")[1])
    _common(svc)
    svc.add_argument("--no-start", action="store_true", help="write the files, do not enable or start the service")
    svc.set_defaults(handler=cmd_install_service)
    kiosk = sub.add_parser("install-kiosk", help="show the table screen on the Pi's HDMI at login (Chromium kiosk)",
                           description=__doc__.split("\n\n")[2])
    _common(kiosk)
    kiosk.add_argument("--url", help="the page to show (default http://localhost:PORT/?kiosk=1)")
    kiosk.set_defaults(handler=cmd_install_kiosk)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", help="the account it runs as (default: the one that ran sudo, else you)")
    p.add_argument("--root", type=Path, default=Path("/"), help="install below this directory (default /)")
    p.add_argument("--print", action="store_true", dest="dry", help="print what would be written, write nothing")


def account(name: str | None) -> Account:
    """The installing user: ``--user``, else ``$SUDO_USER``, else whoever runs this."""
    wanted = name or os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    try:
        entry = pwd.getpwnam(wanted)
    except KeyError:
        raise ValueError(f"no user {wanted!r} on this machine") from None
    if entry.pw_uid == 0 and name is None:
        raise ValueError("run it as the user who plays (or with sudo from that user), or name one with --user")
    return Account(entry.pw_name, grp.getgrgid(entry.pw_gid).gr_name, Path(entry.pw_dir))


def existing_groups(names: tuple[str, ...] = GROUPS) -> list[str]:
    found = []
    for name in names:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        found.append(name)
    return found


def user_config(user: Account) -> Path:
    """The user's config file, the same one ``make run`` reads as that user
    (``$COMPANION_CONFIG`` when it is set)."""
    explicit = os.environ.get("COMPANION_CONFIG")
    return Path(explicit) if explicit else user.home / ".config" / "table-companion" / "companion.conf"


def companion_command() -> str:
    exe = Path(sys.executable).parent / "companion"
    return str(exe) if exe.exists() else f"{sys.executable} -m companion.cli"


def app_home(user: Account) -> Path:
    """Where the user's versions live (companion/update.py's home)."""
    explicit = os.environ.get("COMPANION_HOME")
    return Path(explicit) if explicit else user.home / ".local" / "share" / "table-companion" / "app"


def launch_command(home: Path) -> str:
    """The unit's command: the launcher beside the versions, run by the
    system's Python (companion/launcher.py: no version can break the way back)."""
    python = Path(getattr(sys, "_base_executable", sys.executable))
    return f"{python} {home / 'launch.py'} {home}"


def unit_text(user: Account, config: Path, groups: list[str], command: str, workdir: Path) -> str:
    extra = f"SupplementaryGroups={' '.join(groups)}\n" if groups else ""
    return f"""# Written by `companion install-service` (docs/raspberry-pi.md).  Settings live in
# {config}; `sudo systemctl edit {SERVICE}` adds Environment= lines that override it.
[Unit]
Description=Table Companion (bank, bookkeeper and referee for board games)
Documentation=file://{REPO}/docs/raspberry-pi.md
Wants=network-online.target
After=network-online.target time-sync.target

[Service]
Type=simple
User={user.name}
Group={user.group}
{extra}WorkingDirectory={workdir}
Environment=COMPANION_CONFIG={config}
Environment=COMPANION_HOME={workdir}
Environment=PYTHONUNBUFFERED=1
# the launcher starts {workdir}/current's `companion serve` and, after
# `companion update`, brings the previous version back if the new one does not come up
ExecStart={command}
Restart=on-failure
RestartSec=3
StandardOutput=journal
StandardError=journal
SyslogIdentifier={SERVICE}

[Install]
WantedBy=multi-user.target
"""


def avahi_text(port: int) -> str:
    return f"""<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by `companion install-service`: the dashboard, announced over mDNS -->
<service-group>
  <name replace-wildcards="yes">Table Companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>{port}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""


def configured_port(config: Path) -> int:
    """The port in force: the environment, else the config file, else 8000."""
    from companion.settings import parse_config

    raw = os.environ.get("COMPANION_PORT")
    if raw is None and config.is_file():
        raw = parse_config(config.read_text(encoding="utf-8"), str(config))[0].get("COMPANION_PORT")
    return port_from(raw) or 8000


def below(root: Path, path: Path) -> Path:
    return root / path.relative_to("/") if path.is_absolute() else root / path


def plan_service(user: Account, root: Path) -> tuple[list[Planned], int]:
    config = user_config(user)
    # the config below --root only: a staging root never takes this machine's own port
    port = configured_port(below(root, config))
    home = app_home(user)
    files = [
        Planned(below(root, config), template(), 0o644, keep=True),
        Planned(below(root, Path(f"/etc/systemd/system/{SERVICE}.service")),
                unit_text(user, config, existing_groups(), launch_command(home), home)),
        Planned(below(root, home / "launch.py"), (Path(__file__).parent / "launcher.py").read_text(encoding="utf-8")),
    ]
    if (root / "etc/avahi/services").is_dir() or Path("/usr/sbin/avahi-daemon").exists():
        files.append(Planned(below(root, Path(f"/etc/avahi/services/{SERVICE}.service")), avahi_text(port)))
    return files, port


def kiosk_script(url: str, health: str) -> str:
    return f"""#!/bin/sh
# Written by `companion install-kiosk`: the table screen on this Pi's HDMI.
# Waits for the companion, shows {url} full screen, and starts the browser
# again whenever it closes or crashes.
URL={shlex.quote(url)}
HEALTH={shlex.quote(health)}
# no screen blanking (X11 sessions; under labwc this autostart starts no idle daemon)
command -v xset >/dev/null 2>&1 && xset s off -dpms s noblank 2>/dev/null
for b in chromium chromium-browser; do command -v "$b" >/dev/null 2>&1 && BROWSER=$b && break; done
[ -n "$BROWSER" ] || {{ echo "table-companion-kiosk: no chromium installed (sudo apt install chromium)" >&2; exit 1; }}
while true; do
  until python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=3)" "$HEALTH" 2>/dev/null; do
    sleep 2
  done
  "$BROWSER" --kiosk --noerrdialogs --disable-infobars --disable-session-crashed-bubble \\
    --no-first-run --password-store=basic --check-for-update-interval=31536000 \\
    --disable-features=Translate --ozone-platform-hint=auto \\
    --user-data-dir="$HOME/.cache/table-companion-kiosk" "$URL"
  sleep 3
done
"""


def plan_kiosk(user: Account, root: Path, url: str, health: str) -> list[Planned]:
    launcher = user.home / ".local/bin/table-companion-kiosk"
    line = f"{launcher} &"
    labwc = below(root, user.home / ".config/labwc/autostart")
    current = labwc.read_text(encoding="utf-8") if labwc.exists() else ""
    if line not in current.splitlines():
        header = "" if current else (
            "# labwc autostart (Raspberry Pi OS Bookworm/Trixie desktop).  This file replaces the system one\n"
            "# for this user: no panel and no idle/blanking daemon, just the table screen.\n"
        )
        current = current + ("" if not current or current.endswith("\n") else "\n") + header + line + "\n"
    desktop = f"""[Desktop Entry]
Type=Application
Name=Table Companion kiosk
Comment=The table screen on this Pi's HDMI (companion install-kiosk)
Exec={launcher}
X-GNOME-Autostart-enabled=true
"""
    return [
        Planned(below(root, launcher), kiosk_script(url, health), 0o755),
        Planned(labwc, current),
        Planned(below(root, user.home / ".config/autostart/table-companion-kiosk.desktop"), desktop),
    ]


def write(files: list[Planned], user: Account, dry: bool) -> list[str]:
    done: list[str] = []
    for f in files:
        if f.keep and f.path.exists():
            done.append(f"kept     {f.path} (already there)")
            continue
        if dry:
            done.append(f"would write {f.path}:\n{f.text}")
            continue
        f.path.parent.mkdir(parents=True, exist_ok=True)
        f.path.write_text(f.text, encoding="utf-8")
        f.path.chmod(f.mode)
        _give(f.path, user)
        done.append(f"wrote    {f.path}")
    return done


def _give(path: Path, user: Account) -> None:
    """Files in the user's home belong to the user (when installing with sudo)."""
    if os.getuid() != 0:
        return
    entry = pwd.getpwnam(user.name)
    for p in [path, *path.parents]:
        if p == user.home or not str(p).startswith(str(user.home)):
            break
        os.chown(p, entry.pw_uid, entry.pw_gid)


def cmd_install_service(args: argparse.Namespace) -> int:
    try:
        user = account(args.user)
        files, port = plan_service(user, args.root)
    except ValueError as err:
        print(f"companion install-service: {err}", file=sys.stderr)
        return 2
    system = args.root == Path("/")
    if system and not args.dry and os.getuid() != 0:
        print("companion install-service: writing a systemd unit needs root; run:\n"
              f"  sudo {companion_command()} install-service --user {user.name}", file=sys.stderr)
        return 2
    try:
        for line in write(files, user, args.dry):
            print(line)
    except OSError as err:
        print(f"companion install-service: {err}", file=sys.stderr)
        return 2
    if not args.dry:
        from companion.update import Home

        home = Home(below(args.root, app_home(user)))
        home.set_up(REPO)  # this clone is the first version
        for made in (home.root, home.versions):
            with contextlib.suppress(OSError):
                _give(made, user)
        print(f"versions {home.root} (current: {home.current.resolve()})")
    missing = [g for g in ("video", "gpio", "dialout") if g not in existing_groups()]
    if missing:
        print(f"note: no group {', '.join(missing)} on this machine (Raspberry Pi OS has them)")
    if args.dry or not system or args.no_start:
        print(f"then: sudo systemctl daemon-reload && sudo systemctl enable --now {SERVICE}")
        return 0
    for command in (["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", SERVICE]):
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            print(f"companion install-service: {' '.join(command)} failed: {result.stderr.strip()}", file=sys.stderr)
            return 1
    print(f"{SERVICE} is enabled and started on port {port}: journalctl -u {SERVICE} -f shows the addresses, "
          "the join code and the host PIN")
    return 0


def cmd_install_kiosk(args: argparse.Namespace) -> int:
    try:
        user = account(args.user)
        port = configured_port(user_config(user))
    except ValueError as err:
        print(f"companion install-kiosk: {err}", file=sys.stderr)
        return 2
    url = args.url or f"http://localhost:{port}/?kiosk=1"
    health = f"http://localhost:{port}/healthz"
    try:
        for line in write(plan_kiosk(user, args.root, url, health), user, args.dry):
            print(line)
    except OSError as err:
        print(f"companion install-kiosk: {err}", file=sys.stderr)
        return 2
    print(f"The table screen opens on the HDMI at {user.name}'s next desktop login ({url}). "
          "Log in automatically: sudo raspi-config > System Options > Boot / Auto Login > Desktop Autologin.")
    return 0
