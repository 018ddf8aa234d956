#!/usr/bin/env bash
# Compares mc (1 and 2 workers) with SPIN on the canonical Chang–Roberts
# model, descending ids, in one run on this machine. SPIN runs only when it is
# installed (Debian: apt-get install spin). Usage: bench/compare.sh [n ...]
# (default 10 11). Prints distinct states, seconds, states/s and peak
# resident memory per tool, and mc's rates as ratios to SPIN's and to its own
# one-worker rate. Each tool runs REPS times (default 3), the runs of the
# tools interleaved, and its fastest run is shown: on a shared machine the
# slower runs measure the neighbours.
#
# Then liveness: mc's default run (safety and liveness, 1 and 2 workers)
# against SPIN's liveness search (pan -a -f, weak fairness, no reduction) of
# ltl { <> (one leader) } on the same model, with its time and memory as
# multiples of mc's (LIVENESS=0 skips it; SPIN's search at n = 11 takes
# minutes and gigabytes).
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

[ "${LIVENESS:-1}" = 1 ] || exit 0

# spin_live_model N: the model with the claim <> (exactly one leader), the
# count written out for N processes.
spin_live_model() {
  local n=$1 count="" i
  for ((i = 0; i < n; i++)); do count="$count${count:+ + }(decided[$i] == 1)"; done
  {
    echo "#define N $n"
    echo "#include \"$PWD/bench/changroberts.pml\""
    echo "ltl one_leader { <> (($count) == 1) }"
  } >"$work/live.pml"
}

# live NAME COMMAND...: runs COMMAND under /usr/bin/time, prints
# "seconds maxrss_kb", and checks that it passed.
live() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>&1 || true
  case $name in
  spin) grep -q 'errors: 0' "$work/out" || { echo "compare: SPIN's liveness search found an error" >&2; cat "$work/out" >&2; exit 1; } ;;
  *) grep -q '^verdict: pass' "$work/out" || { echo "compare: mc's default run did not pass" >&2; cat "$work/out" >&2; exit 1; } ;;
  esac
  tail -1 "$work/time"
}

echo
printf "%-4s %-26s %8s %10s   %s\n" n "liveness run" seconds "peak MiB" "SPIN pan -a -f over mc"
for n in "${sizes[@]}"; do
  have_spin=0
  if command -v spin >/dev/null 2>&1; then
    spin_live_model "$n"
    (cd "$work" && spin -a live.pml >/dev/null && gcc -O2 -DNOREDUCE -DNFAIR=$((n + 2)) -DMEMLIM=20000 -o pan_live pan.c)
    have_spin=1
  fi
  for r in lspin l1 l2; do : >"$work/$r.runs"; done
  for ((i = 0; i < reps; i++)); do
    [ "$have_spin" = 0 ] || (cd "$work" && live spin ./pan_live -a -f -m100000 -w24) >>"$work/lspin.runs"
    for w in 1 2; do
      live mc "$work/mc" check changroberts --n "$n" --workers "$w" --no-db >>"$work/l$w.runs"
    done
  done
  st="" sm=""
  [ "$have_spin" = 0 ] || read -r st sm < <(sort -k1,1n "$work/lspin.runs" | head -1)
  for w in 1 2; do
    read -r t m < <(sort -k1,1n "$work/l$w.runs" | head -1)
    ratio=""
    [ -z "$st" ] || ratio="time x$(awk -v a="$st" -v b="$t" 'BEGIN{printf "%.2f", a/b}'), memory x$(awk -v a="$sm" -v b="$m" 'BEGIN{printf "%.2f", a/b}')"
    printf "%-4s %-26s %8s %10.1f   %s\n" "$n" "mc default -w$w" "$t" "$(awk -v m="$m" 'BEGIN{print m/1024}')" "$ratio"
  done
  [ -z "$st" ] || printf "%-4s %-26s %8s %10.1f\n" "$n" "spin pan -a -f" "$st" "$(awk -v m="$sm" 'BEGIN{print m/1024}')"
done
