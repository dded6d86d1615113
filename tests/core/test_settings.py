"""The config file, --version, a bad COMPANION_PORT and serve --help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import __version__
from companion.settings import SETTINGS, ConfigError, load_config, parse_config, port_from, template

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                          env=full, cwd=REPO, timeout=60)


def test_file_values_apply_only_where_the_environment_is_silent(tmp_path: Path) -> None:
    conf = tmp_path / "companion.conf"
    conf.write_text("# the Pi by the table\nCOMPANION_PORT=8080\nexport COMPANION_CAMERA = 'v4l2:/dev/video2'\n"
                    "COMPANION_DICE=button:22\n\nCOMPANION_FUTURE=1\n")
    env = {"COMPANION_CONFIG": str(conf), "COMPANION_DICE": "none"}
    path, taken, warnings = load_config(env)
    assert path == conf
    assert taken == {"COMPANION_PORT": "8080", "COMPANION_CAMERA": "v4l2:/dev/video2", "COMPANION_FUTURE": "1"}
    assert env["COMPANION_DICE"] == "none"  # the environment overrides the file
    assert warnings == [f"{conf} line 6: COMPANION_FUTURE is not a setting this companion knows; set anyway"]


def test_a_bad_file_says_which_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="line 2: write NAME=value"):
        parse_config("COMPANION_PORT=1\nthis is not a setting\n", "c.conf")
    with pytest.raises(ConfigError, match="line 1: PATH is not a companion setting"):
        parse_config("PATH=/tmp\n", "c.conf")
    assert load_config({"COMPANION_CONFIG": str(tmp_path / "absent.conf")})[1] == {}
    conf = tmp_path / "bad.conf"
    conf.write_text("COMPANION_PORT 8000\n")
    result = run("games", env={"COMPANION_CONFIG": str(conf)})
    assert result.returncode == 2 and "bad.conf line 1: write NAME=value" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_template_lists_every_setting_commented_out() -> None:
    text = template()
    values, warnings = parse_config(text)
    assert values == {} and warnings == []  # everything is a comment: defaults stay defaults
    for s in SETTINGS:
        assert f"#{s.variable}={s.default}\n" in text
    uncommented = "\n".join(line.removeprefix("#") for line in text.splitlines() if line.startswith("#COMPANION_"))
    assert set(parse_config(uncommented)[0]) == {s.variable for s in SETTINGS}


def test_port_from() -> None:
    assert port_from(None) == 8000 and port_from("") == 8000 and port_from(" 8080 ") == 8080 and port_from("0") == 0
    for bad in ("abc", "-1", "65536", "80.5"):
        with pytest.raises(ValueError, match="not a whole number from 1 to 65535"):
            port_from(bad)


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.startswith(f"companion {__version__} (Python ")


def test_a_bad_port_is_a_clear_error_for_every_subcommand(tmp_path: Path) -> None:
    env = {"COMPANION_PORT": "abc"}
    assert run("games", env=env).returncode == 0  # only serve reads the port
    result = run("doctor", "--quick", env={**env, "COMPANION_CAMERA": "none", "COMPANION_DICE": "none"})
    assert "Traceback" not in result.stderr, result.stderr
    # doctor checks what serve (and so the service) would stop on: a misspelt setting, exit 2
    assert result.returncode == 2 and "companion doctor: COMPANION_PORT: port 'abc' is not" in result.stderr
    result = run("serve", "--no-hardware", env={**env, "COMPANION_DB": str(tmp_path / "t.sqlite3")})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "COMPANION_PORT: port 'abc' is not a whole number" in result.stderr
    result = run("serve", "--no-hardware", "--port", "x1", env={"COMPANION_DB": str(tmp_path / "t.sqlite3")})
    assert result.returncode == 2 and "--port: port 'x1'" in result.stderr


def test_serve_help_names_the_environment_variables() -> None:
    result = run("serve", "--help")
    assert result.returncode == 0
    for s in SETTINGS:
        assert s.variable in result.stdout
    assert "$COMPANION_PORT" in result.stdout and "companion.conf" in result.stdout
