#!/usr/bin/env bash
# Compares mc (1 and 2 workers) with SPIN on the canonical Chang–Roberts
# model, descending ids, in one run on this machine. SPIN runs only when it is
# installed (Debian: apt-get install spin). Usage: bench/compare.sh [n ...]
# (default 10 11). Prints distinct states, seconds, states/s and peak
# resident memory per tool, and mc's rates as ratios to SPIN's and to its own
# one-worker rate. Each tool runs REPS times (default 3), the runs of the
# tools interleaved, and its fastest run is shown: on a shared machine the
# slower runs measure the neighbours.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 11)
reps=${REPS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mc" ./cmd/mc

# measure NAME COMMAND...: runs COMMAND under /usr/bin/time, prints
# "states seconds maxrss_kb" parsed from its output.
measure() {
  local out="$work/out" tm="$work/time"
  /usr/bin/time -f "%e %M" -o "$tm" "$@" >"$out" 2>&1 || true
  local states
  states=$(grep -oE '^ *[0-9]+ (distinct states|states, stored)' "$out" | grep -oE '[0-9]+' | head -1)
  echo "${states:-?} $(cat "$tm" | tail -1)"
}

# fastest "states seconds maxrss_kb" among lines on stdin.
fastest() { sort -k2,2n | head -1; }

printf "%-4s %-12s %12s %8s %12s %10s %10s\n" n tool states seconds states/s "peak MiB" ratio
for n in "${sizes[@]}"; do
  have_spin=0
  if command -v spin >/dev/null 2>&1; then
    (cd "$work" && spin -DN="$n" -a "$OLDPWD/bench/changroberts.pml" >/dev/null && gcc -O2 -DNOREDUCE -DSAFETY -DMEMLIM=16000 -o pan pan.c)
    have_spin=1
  fi
  : >"$work/spin.runs"
  : >"$work/w1.runs"
  : >"$work/w2.runs"
  for ((i = 0; i < reps; i++)); do
    [ "$have_spin" = 0 ] || measure "$work/pan" -m100000 -w24 >>"$work/spin.runs"
    for w in 1 2; do
      measure "$work/mc" check changroberts --n "$n" --workers "$w" --safety >>"$work/w$w.runs"
    done
  done
  spin_rate=""
  if [ "$have_spin" = 1 ]; then
    read -r s t m < <(fastest <"$work/spin.runs")
    spin_rate=$(awk -v s="$s" -v t="$t" 'BEGIN{printf "%.0f", s/t}')
    printf "%-4s %-12s %12s %8s %12s %10.0f %10s\n" "$n" "spin" "$s" "$t" "$spin_rate" "$(awk -v m="$m" 'BEGIN{print m/1024}')" "1.00"
  fi
  one=""
  for w in 1 2; do
    read -r s t m < <(fastest <"$work/w$w.runs")
    rate=$(awk -v s="$s" -v t="$t" 'BEGIN{printf "%.0f", s/t}')
    [ -n "$one" ] || one=$rate
    ratio="x$(awk -v r="$rate" -v o="$one" 'BEGIN{printf "%.2f", r/o}') 1w"
    [ -z "$spin_rate" ] || ratio="x$(awk -v r="$rate" -v b="$spin_rate" 'BEGIN{printf "%.2f", r/b}') spin, $ratio"
    printf "%-4s %-12s %12s %8s %12s %10.0f   %s\n" "$n" "mc -w$w" "$s" "$t" "$rate" "$(awk -v m="$m" 'BEGIN{print m/1024}')" "$ratio"
  done
done
