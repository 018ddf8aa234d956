#!/usr/bin/env bash
# Is uniring's byte layout worth its code? Counts the instructions mc
# executes to check Chang–Roberts (descending ids, --safety, one worker)
# with the byte layout (specs/internal/uniring/layout.go) and with the same
# state in package ring's generic channels (generic.go, build tag
# uniring_generic), and prints instructions per state for each and their
# ratio. Instruction counts, unlike seconds, do not depend on what else the
# machine runs. Uses `perf stat -e instructions` where the kernel exposes
# the counter, else valgrind's callgrind (apt-get install valgrind), which
# is slower: keep n small. Usage: bench/uniring.sh [n ...] (default 8 9).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(8 9)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mc-layout" ./cmd/mc
go build -tags uniring_generic -o "$work/mc-generic" ./cmd/mc

use_perf=0
if command -v perf >/dev/null 2>&1 && perf stat -x, -e instructions true 2>&1 | grep -qE '^[0-9]+,'; then
  use_perf=1
elif ! command -v valgrind >/dev/null 2>&1; then
  echo "bench/uniring.sh: needs perf with an instructions counter, or valgrind" >&2
  exit 1
fi

# count BINARY N: prints "states instructions" for one run.
count() {
  local out="$work/out" ins
  # Go's preemption signals upset callgrind; one thread keeps the count
  # comparable between the two builds.
  if [ "$use_perf" = 1 ]; then
    GOMAXPROCS=1 perf stat -x, -e instructions -o "$work/perf" "$1" check changroberts --n "$2" --safety --workers 1 >"$out" 2>&1 || true
    ins=$(grep -E ',instructions' "$work/perf" | cut -d, -f1)
  else
    GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
      "$1" check changroberts --n "$2" --safety --workers 1 >"$out" 2>"$work/err" || true
    ins=$(grep -oE 'Collected : [0-9]+' "$work/err" | grep -oE '[0-9]+')
  fi
  echo "$(grep -oE '^ *[0-9]+ distinct states' "$out" | grep -oE '[0-9]+') $ins"
}

printf "%-4s %-8s %10s %16s %12s %8s\n" n state states instructions "instr/state" ratio
for n in "${sizes[@]}"; do
  read -r s1 i1 < <(count "$work/mc-layout" "$n")
  read -r s2 i2 < <(count "$work/mc-generic" "$n")
  if [ "$s1" != "$s2" ]; then
    echo "bench/uniring.sh: n=$n: $s1 states with the layout, $s2 with generic channels" >&2
    exit 1
  fi
  printf "%-4s %-8s %10s %16s %12s %8s\n" "$n" layout "$s1" "$i1" "$((i1 / s1))" 1
  printf "%-4s %-8s %10s %16s %12s %8s\n" "$n" generic "$s2" "$i2" "$((i2 / s2))" "$(awk "BEGIN { printf \"%.2f\", $i2 / $i1 }")"
done
