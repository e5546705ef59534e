#!/usr/bin/env bash
# Whether a ratio's 95 % interval covers a rerun: pairs of back-to-back default runs of one
# release build, each pair compared with `bench compare --ratios`, whose last lines say how many
# of the second run's ratios fall inside the first run's intervals and how many clear verdicts
# it reverses. Also prints each run's wall time (the default run aims at 90 s after the build).
#
#     swift build -c release
#     bash Tests/interval-coverage.sh [pairs (default 3)] [output folder (default a new temporary one)] [extra run options…]
#
# Runs go to the output folder (never into the checkout's results/). Measure on a quiet machine
# and say what else ran: the intervals are for this machine's noise as the runs met it.
set -euo pipefail

pairs=${1:-3}
out=${2:-$(mktemp -d -t interval-coverage.XXXXXX)}
shift $(( $# < 2 ? $# : 2 ))
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/.build/release/bench"
[[ -x $bench ]] || { echo "interval-coverage.sh: no release build at $bench; run swift build -c release first" >&2; exit 2; }
mkdir -p "$out"
echo "runs in $out; load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$bench" run --quiet --output "$out/$name.csv" "$@" >"$out/$name.log" 2>&1
  end=$(date +%s.%N)
  printf '%s: %.1f s (load after: %s)\n' "$name" "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
}

for pair in $(seq 1 "$pairs"); do
  run "pair$pair-a" "$@"
  run "pair$pair-b" "$@"
  # Exit 2 or 4 means some ratio changed between the runs, which is what is being measured.
  "$bench" compare --ratios "$out/pair$pair-a.csv" "$out/pair$pair-b.csv" >"$out/pair$pair.compare.txt" || true
  printf 'pair %s: ' "$pair"
  grep '^coverage:' "$out/pair$pair.compare.txt" || echo "(no coverage line; see $out/pair$pair.compare.txt)"
done
