#!/usr/bin/env bash
# Runs INSIDE a Debian arm64 root (see benchmarks/pi_proof.sh), as root, in a
# fresh clone of the repository.  The machine is told it is a Pi
# (COMPANION_PI=1), so `make run` takes the Raspberry Pi OS path: numpy and
# OpenCV from apt, a venv with system site packages, one numpy.
#
#   bash benchmarks/pi_in_root.sh SUITE STEPS [TEST PATHS]
#     TEST PATHS: what the `tests` step runs (default: tests/core tests/hardware)
set -uo pipefail
suite=$1
steps=",$2,"
test_paths=${3:-tests/core tests/hardware}
# A debootstrap minbase root has no /etc/hosts, so "localhost" does not resolve
# there (the kiosk launcher's health check asks http://localhost:PORT); every
# Raspberry Pi OS image has one that names it.
[[ -e /etc/hosts ]] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > /etc/hosts
export COMPANION_PI=1 COMPANION_DB=/tmp/proof.sqlite3 COMPANION_SEEDS=/root/shared/seeds
say() { echo "PROOF $suite $*"; }
has() { [[ $steps == *",$1,"* ]]; }
now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.0f}')"; }
say "machine=$(uname -m) python=$(python3 -V | cut -d' ' -f2) debian=$(cat /etc/debian_version)"
status=0

if has setup; then
  t0=$(now)
  if make run-deps > /tmp/proof-setup.log 2>&1; then say "setup=ok"; else say "setup=FAILED"; tail -30 /tmp/proof-setup.log; exit 1; fi
  say "setup_seconds=$(secs "$t0" "$(now)")"
  grep -E '^one numpy|^note:' /tmp/proof-setup.log | sed "s/^/PROOF $suite /"
  t0=$(now); make run-deps > /dev/null 2>&1 && say "setup_again_seconds=$(secs "$t0" "$(now)")"
fi

if has serve; then
  # `make run` itself, in the background; up when /healthz answers
  t0=$(now)
  COMPANION_PORT=8765 COMPANION_PIN=2468 COMPANION_JOIN_CODE=PIPI timeout 600 make run > /tmp/proof-serve.log 2>&1 &
  pid=$!
  up=""
  for _ in $(seq 1 600); do
    if python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8765/healthz', timeout=2)" 2>/dev/null; then up=1; break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 0.5
  done
  if [[ -n $up ]]; then
    say "serve=ok startup_seconds=$(secs "$t0" "$(now)")"
    page=$(python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:8765/', timeout=30).read().decode())")
    grep -q PIPI <<<"$page" && say "lobby=ok (join code on the table screen)" || { say "lobby=FAILED"; status=1; }
  else
    say "serve=FAILED"; status=1
  fi
  grep -E 'serving|hardware:|note:' /tmp/proof-serve.log | sed "s/^/PROOF $suite serve: /"
  kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
  COMPANION_CAMERA=none .venv/bin/companion doctor --quick > /tmp/proof-doctor.txt 2>&1; say "doctor_exit=$?"
  sed "s/^/PROOF $suite doctor: /" /tmp/proof-doctor.txt
fi

if has scan; then
  ok=0; n=0
  for png in /root/shared/qr-photos/qrcode-1/{1,13,20}.png; do
    [[ -e $png ]] || continue
    n=$((n + 1))
    want=$(cat "${png%.png}.txt")
    got=$(.venv/bin/companion scan --json "$png" | .venv/bin/python -c "import json,sys; print(*(c['text'] for c in json.load(sys.stdin)[0]['codes']))")
    [[ $got == "$want" ]] && ok=$((ok + 1)) || say "scan_miss=$png got=$got"
  done
  say "scan_real_photos=$ok/$n"
  [[ $ok -gt 0 && $ok -eq $n ]] || status=1
fi

if has clash; then
  # a Debian-packaged compiled numpy extension seen through the venv's system site packages
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pywt > /dev/null
  .venv/bin/python -c 'import pytest' 2>/dev/null || make test-deps TEST_APT= > /tmp/proof-testdeps.log 2>&1
  t0=$(now)
  if COMPANION_PI_ROOT=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/pi_root > /tmp/proof-clash.log 2>&1; then
    say "numpy_clash_test=passed"
  else
    say "numpy_clash_test=FAILED"; status=1
  fi
  tail -5 /tmp/proof-clash.log | sed "s/^/PROOF $suite clash: /"
  say "clash_seconds=$(secs "$t0" "$(now)")"
fi

if has tests; then
  t0=$(now)
  # the sqlite3 command line: the store-recovery tests use it (no Chromium: the browser tests are not run here)
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sqlite3 > /dev/null
  make test-deps TEST_APT= > /tmp/proof-testdeps.log 2>&1 || { say "test_deps=FAILED"; tail -20 /tmp/proof-testdeps.log; }
  say "test_deps_seconds=$(secs "$t0" "$(now)")"
  t0=$(now)
  # shellcheck disable=SC2086 # the paths are words
  .venv/bin/python -m pytest -q -rs -p no:cacheprovider $test_paths > /tmp/proof-tests.log 2>&1
  rc=$?
  say "tests=$test_paths tests_exit=$rc tests_seconds=$(secs "$t0" "$(now)")"
  grep -E '^SKIPPED' /tmp/proof-tests.log | sed "s/^/PROOF $suite tests: /"
  tail -1 /tmp/proof-tests.log | sed "s/^/PROOF $suite tests: /"
  [[ $rc -eq 0 ]] || { status=1; grep -E '^(FAILED|ERROR)' /tmp/proof-tests.log | head -20; }
fi

if has bench; then
  t0=$(now)
  .venv/bin/python -m benchmarks.qr --frames 60 --no-write > /tmp/proof-bench.txt 2>&1
  say "bench_exit=$? bench_seconds=$(secs "$t0" "$(now)")"
  # --no-write prints one line per reader (read rates, median ms), no tables
  sed "s/^/PROOF $suite bench: /" /tmp/proof-bench.txt | head -40
fi
say "status=$status"
exit $status
