"""companion install-service and install-kiosk: what they write, and that it works."""

from __future__ import annotations

import configparser
import http.server
import json
import os
import pwd
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main

REPO = Path(__file__).resolve().parents[2]


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text())
    return parser


def test_install_service_writes_unit_config_and_mdns(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_PORT", raising=False)
    monkeypatch.delenv("COMPANION_HOME", raising=False)  # the user's own, below --root
    (tmp_path / "etc/avahi/services").mkdir(parents=True)
    conf = tmp_path / "root/.config/table-companion/companion.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("COMPANION_PORT=8123\nCOMPANION_DICE=none\n")  # the user's settings: kept as they are
    assert main(["install-service", "--root", str(tmp_path), "--user", "root"]) == 0
    out = capsys.readouterr().out
    assert "kept" in out and "systemctl enable --now table-companion" in out
    assert conf.read_text() == "COMPANION_PORT=8123\nCOMPANION_DICE=none\n"

    u = unit(tmp_path / "etc/systemd/system/table-companion.service")
    assert u["Unit"]["After"].split()[0] == "network-online.target" and u["Unit"]["Wants"] == "network-online.target"
    service = u["Service"]
    assert service["User"] == "root" and service["Restart"] == "on-failure"
    assert service["StandardOutput"] == "journal" and service["StandardError"] == "journal"
    # the launcher beside the versions, by the system's Python; this clone the first version
    python, launch, home = service["ExecStart"].split()
    assert Path(python).exists() and home == "/root/.local/share/table-companion/app"
    assert launch == home + "/launch.py" and service["WorkingDirectory"] == home
    installed = tmp_path / home.lstrip("/")
    assert (installed / "launch.py").read_text() == (REPO / "companion" / "launcher.py").read_text()
    assert (installed / "current").resolve() == REPO
    assert f"Environment=COMPANION_HOME={home}" in (tmp_path / "etc/systemd/system/table-companion.service").read_text()
    assert u["Install"]["WantedBy"] == "multi-user.target"
    config_line = [line for line in (tmp_path / "etc/systemd/system/table-companion.service").read_text().splitlines()
                   if line.startswith("Environment=COMPANION_CONFIG=")]
    assert config_line == ["Environment=COMPANION_CONFIG=/root/.config/table-companion/companion.conf"]
    avahi = (tmp_path / "etc/avahi/services/table-companion.service").read_text()
    assert "<type>_http._tcp</type>" in avahi and "<port>8123</port>" in avahi


def test_a_fresh_install_writes_the_documented_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """As whoever runs the tests (``--user root`` read root's home: a
    PermissionError for the Pi's own user): the account running them, its
    home below --root."""
    me = pwd.getpwuid(os.getuid())
    for variable in ("COMPANION_CONFIG", "COMPANION_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("COMPANION_PORT", raising=False)
    root = tmp_path / "root-fs"
    assert main(["install-service", "--root", str(root), "--user", me.pw_name, "--no-start"]) == 0
    home = root / Path(me.pw_dir).relative_to("/")
    conf = (home / ".config/table-companion/companion.conf").read_text()
    assert "#COMPANION_PORT=8000" in conf and "#COMPANION_CAMERA=auto" in conf
    unit_file = root / "etc/systemd/system/table-companion.service"
    assert unit(unit_file)["Service"]["User"] == me.pw_name
    assert f"Environment=COMPANION_CONFIG={me.pw_dir}/.config/table-companion/companion.conf" in unit_file.read_text()
    capsys.readouterr()
    # --print on the real root writes nothing and shows everything (the config file
    # and the versions' home in tmp_path, so that the account's own are not read)
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("COMPANION_CONFIG", str(elsewhere / "companion.conf"))
    monkeypatch.setenv("COMPANION_HOME", str(elsewhere / "app"))
    assert main(["install-service", "--print", "--user", me.pw_name]) == 0
    out = capsys.readouterr().out
    assert "would write /etc/systemd/system/table-companion.service" in out
    assert f"would write {elsewhere / 'companion.conf'}:\n" in out and "#COMPANION_CAMERA=auto" in out
    assert f"would write {elsewhere / 'app' / 'launch.py'}" in out
    assert not elsewhere.exists()


def test_the_service_reads_its_settings_from_the_config_file(tmp_path: Path) -> None:
    """What the unit's Environment=COMPANION_CONFIG does: the file's settings
    apply, an environment variable still overrides one."""
    conf = tmp_path / "companion.conf"
    conf.write_text("COMPANION_CAMERA=none\nCOMPANION_DICE=none\nCOMPANION_DEBOUNCE=2/4\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "COMPANION_CONFIG": str(conf), "COMPANION_DEBOUNCE": "4/6"}
    env.pop("COMPANION_CAMERA", None)
    env.pop("COMPANION_DICE", None)
    result = subprocess.run([sys.executable, "-m", "companion.cli", "doctor", "--json", "--quick"],
                            capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    settings = json.loads(result.stdout)["settings"]
    assert (settings["camera"], settings["dice"], settings["debounce"]) == ("none", "none", "4/6")


def test_install_service_without_root_says_how(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    assert main(["install-service", "--user", "root"]) == 2
    assert "sudo " in capsys.readouterr().err


@pytest.fixture
def healthy() -> Iterator[int]:
    """A local page answering /healthz, like a running companion."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_install_kiosk_and_the_launcher_restarts_the_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch, healthy: int) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("COMPANION_PORT", str(healthy))
    for _ in range(2):  # twice: the autostart line is there once
        assert main(["install-kiosk", "--root", str(tmp_path), "--user", "root"]) == 0
    capsys.readouterr()
    launcher = tmp_path / "root/.local/bin/table-companion-kiosk"
    autostart = (tmp_path / "root/.config/labwc/autostart").read_text()
    assert autostart.count("/root/.local/bin/table-companion-kiosk &") == 1
    assert "Exec=/root/.local/bin/table-companion-kiosk" in (
        tmp_path / "root/.config/autostart/table-companion-kiosk.desktop").read_text()
    assert os.access(launcher, os.X_OK)

    # a fake chromium that "crashes" at once: the launcher must start it again
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    fake = bin_dir / "chromium"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n[ $(wc -l < {calls}) -ge 2 ] && kill $PPID\nexit 1\n')
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "HOME": str(tmp_path)}
    subprocess.run(["sh", str(launcher)], env=env, timeout=60, check=False)
    runs = calls.read_text().splitlines()
    assert len(runs) == 2
    assert "--kiosk" in runs[0] and f"http://localhost:{healthy}/?kiosk=1" in runs[0]
    assert "--noerrdialogs" in runs[0] and "--disable-session-crashed-bubble" in runs[0]


def test_a_root_s_port_never_comes_from_the_machine_s_own_config(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """plan_service read the account's real config for the port when the one
    below --root was missing: a staging root took this machine's settings."""
    from companion.appliance import Account, plan_service

    for variable in ("COMPANION_CONFIG", "COMPANION_PORT"):
        monkeypatch.delenv(variable, raising=False)
    home = tmp_path / "home" / "pi"
    real = home / ".config" / "table-companion" / "companion.conf"
    real.parent.mkdir(parents=True)
    real.write_text("COMPANION_PORT=9123\n", encoding="utf-8")
    root = tmp_path / "root-fs"
    _files, port = plan_service(Account("pi", "pi", home), root)
    assert port == 8000
    staged = root / real.relative_to("/")
    staged.parent.mkdir(parents=True)
    staged.write_text("COMPANION_PORT=8124\n", encoding="utf-8")
    assert plan_service(Account("pi", "pi", home), root)[1] == 8124
