#!/usr/bin/env bash
# The arm64 proof (`make pi-proof`): the Raspberry Pi OS install path in Debian
# arm64 roots under qemu emulation (../shared/tools/arm64-root.sh), the nearest
# thing to a Pi here.  NOT part of .ci/run: it takes about an hour.
#
#   bash benchmarks/pi_proof.sh [bookworm|trixie|all] [STEPS] [TEST PATHS]
#     STEPS (default all): setup serve scan clash tests bench, comma-separated
#     TEST PATHS (default "tests/core tests/hardware"): what the tests step runs
#
# Each step prints "PROOF <suite> <key>=<value>" lines; the whole output is
# added to test-artifacts/pi-proof-<suite>.log (each run headed by its date and
# commit, so a re-run of one step keeps the earlier ones).  The numbers are copied by hand into
# docs/benchmarks.md (section "Raspberry Pi OS under emulation").
#
# The root tool clones HEAD of the repository it is run from and copies
# ../shared beside it, so this script stages a clone of HEAD next to a real
# copy of the shared folder (a symlinked ../shared would not reach the root).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
suites=${1:-bookworm}
steps=${2:-setup,serve,scan,clash,tests,bench}
test_paths=${3:-tests/core tests/hardware}
[[ $suites == all ]] && suites="bookworm trixie"
tool=$(readlink -f "$here/../shared/tools/arm64-root.sh")
[[ -x $tool ]] || { echo "no ../shared/tools/arm64-root.sh beside $here" >&2; exit 1; }
stage=${PI_PROOF_STAGE:-/tmp/pi-proof}
rm -rf "$stage" && mkdir -p "$stage" "$here/test-artifacts"
git clone -q "$here" "$stage/tc"
cp -rL "$here/../shared" "$stage/shared"
for suite in $suites; do
  log="$here/test-artifacts/pi-proof-$suite.log"
  echo "== $suite: $steps on $(git -C "$stage/tc" log -1 --format='%h %s' | cut -c1-80), $(date -u +%FT%TZ) (log: $log)" | tee -a "$log"
  (cd "$stage/tc" && "$tool" "$suite" -- "bash benchmarks/pi_in_root.sh $suite $steps '$test_paths'") 2>&1 \
    | tee "$stage/$suite.log" | tee -a "$log"
  grep '^PROOF ' "$stage/$suite.log" || true
done
