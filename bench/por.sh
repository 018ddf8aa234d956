#!/usr/bin/env bash
# Prints the rows of results/por.md: for SPEC on the descending arrangement,
# for each ring size n, the full state count (when n <= FULL_MAX), the
# states stored by mc check --por (both with --safety: the safety properties
# only, as reduction requires), its time and peak memory (measured with
# /usr/bin/time), and, for changroberts, the states SPIN stores with its own
# partial-order reduction on bench/changroberts_xr.pml (depth-first; when
# spin is installed and n <= SPIN_MAX).
# The full run gets FULL_TIMEOUT (default 60s); one that does not finish in
# time shows "—". ARGS (say "--variant probe") goes to both runs.
# Usage: bench/por.sh SPEC n... (env FULL_MAX, default 11; SPIN_MAX, default 14;
# FULL_TIMEOUT; ARGS)
set -euo pipefail
cd "$(dirname "$0")/.."
spec=$1
shift
full_max=${FULL_MAX:-11}
spin_max=${SPIN_MAX:-14}
full_timeout=${FULL_TIMEOUT:-60s}
read -r -a args <<<"${ARGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mc" ./cmd/mc

# field NAME FILE: a number from mc check --json output.
field() { grep -oE "\"$1\": [0-9.]+" "$2" | head -1 | grep -oE '[0-9.]+$'; }

echo "| n | full states | --por states | stored/full | --por time | --por peak memory | SPIN --por states |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in "$@"; do
  full="—"
  if [ "$n" -le "$full_max" ]; then
    "$work/mc" check "$spec" "${args[@]}" --n "$n" --safety --timeout "$full_timeout" --json >"$work/full" || true
    full=$(field states "$work/full")
    if grep -q '"verdict": "incomplete"' "$work/full"; then full="—"; fi
  fi
  /usr/bin/time -f "%e %M" -o "$work/time" "$work/mc" check "$spec" "${args[@]}" --n "$n" --por --safety --json >"$work/red" || true
  red=$(field states "$work/red")
  read -r secs kb <"$work/time"
  ratio="—"
  [ "$full" = "—" ] || ratio=$(awk -v r="$red" -v f="$full" 'BEGIN{printf "%.4f", r/f}')
  spin="—"
  if [ "$spec" = changroberts ] && [ "$n" -le "$spin_max" ] && command -v spin >/dev/null 2>&1; then
    (cd "$work" && spin -DN="$n" -a "$OLDPWD/bench/changroberts_xr.pml" >/dev/null && gcc -O2 -DSAFETY -DMEMLIM=16000 -o pan pan.c && ./pan -m1000000 -w26 >spin.out)
    spin=$(grep -oE '^ *[0-9]+ states, stored' "$work/spin.out" | grep -oE '[0-9]+')
  fi
  printf "| %s | %s | %s | %s | %s s | %s MiB | %s |\n" "$n" "$full" "$red" "$ratio" "$secs" "$((kb / 1024))" "$spin"
done
