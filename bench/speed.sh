#!/usr/bin/env bash
# The speed targets of issue #34 in one run, on the canonical Chang–Roberts
# model with descending ids:
#   - mc --safety with one worker against SPIN on ../shared/bench/crcanon.pml
#     (one Promela process, every step a d_step: the strongest SPIN model of
#     it we know; spin -DN=n -DDESC=1 -a, gcc -O2 -DSAFETY -DNOREDUCE,
#     ./pan -q -w26), both pinned to one core (taskset -c 0), so that
#     neither borrows the other core for its collector;
#   - two workers against one;
#   - peak resident memory per state (everything included);
#   - mc's default run (liveness by Chang–Roberts's termination measure)
#     against --safety;
#   - the current build against mc built at BASE (default 580d9a3), the
#     same --safety command, one core.
# Usage: bench/speed.sh [n ...] (default 10 11). Every command runs REPS
# times (default 3), the tools interleaved; the table gives each command's
# fastest wall seconds and peak memory, and the states every tool stored,
# which must be equal (the script stops if they are not). A ratio is the
# median, over the repetitions, of the two commands' times in the same
# repetition, with the range after it: the host's speed drifts over a
# session, and two fastest runs from different minutes would not compare.
# CRCANON names another copy of crcanon.pml. SPIN runs only when installed
# (Debian: apt-get install spin).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 11)
reps=${REPS:-3}
base=${BASE:-580d9a3}
crcanon=${CRCANON:-$root/../shared/bench/crcanon.pml}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
go build -o "$work/mc" ./cmd/mc
git worktree add --detach -q "$work/base" "$base"
(cd "$work/base" && go build -o "$work/mc-base" ./cmd/mc)
have_spin=0
if command -v spin >/dev/null 2>&1 && [ -f "$crcanon" ]; then have_spin=1; fi
one=(taskset -c 0)
command -v taskset >/dev/null 2>&1 || one=()

# measure COMMAND...: runs COMMAND (in $work, so that a run store lands
# there) under /usr/bin/time; prints "states seconds maxrss_kb".
measure() {
  (cd "$work" && /usr/bin/time -f "%e %M" -o time "$@" >out 2>&1) || true
  local states
  states=$(grep -oE '^ *[0-9]+ (distinct states|states, stored)' "$work/out" | grep -oE '[0-9]+' | head -1)
  echo "${states:-?} $(tail -1 "$work/time")"
}

# fastest "states seconds maxrss_kb" among lines on stdin.
fastest() { sort -k2,2n | head -1; }

ids() { seq -s, "$1" -1 1; }

printf "%-3s %-22s %10s %8s %9s %8s  %s\n" n run states seconds "peak MiB" B/state ratio
for n in "${sizes[@]}"; do
  if [ "$have_spin" = 1 ]; then
    (cd "$work" && spin -DN="$n" -DDESC=1 -a "$crcanon" >/dev/null && gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=20000 -o pan pan.c)
  fi
  runs=(spin w1 w2 default base)
  for r in "${runs[@]}"; do : >"$work/$r.runs"; done
  common=(check changroberts --n "$n" --ids "$(ids "$n")")
  for ((i = 0; i < reps; i++)); do
    [ "$have_spin" = 0 ] || measure "${one[@]}" ./pan -q -w26 >>"$work/spin.runs"
    measure "${one[@]}" "$work/mc" "${common[@]}" --safety --workers 1 --no-db >>"$work/w1.runs"
    measure "$work/mc" "${common[@]}" --safety --workers 2 --no-db >>"$work/w2.runs"
    measure "${one[@]}" "$work/mc" "${common[@]}" --workers 1 --no-db >>"$work/default.runs"
    measure "${one[@]}" "$work/mc-base" "${common[@]}" --safety --workers 1 >>"$work/base.runs"
  done
  declare -A S T M
  for r in "${runs[@]}"; do
    [ -s "$work/$r.runs" ] || continue
    read -r S[$r] T[$r] M[$r] < <(fastest <"$work/$r.runs")
  done
  for r in "${runs[@]}"; do
    [ -n "${S[$r]:-}" ] || continue
    if [ "${S[$r]}" != "${S[w1]}" ]; then
      echo "speed.sh: n=$n: $r stored ${S[$r]} states, mc ${S[w1]}" >&2
      exit 1
    fi
  done
  # paired NUM DEN: the median, over the repetitions, of NUM's seconds
  # over DEN's in the same repetition (the two ran minutes apart at most,
  # so a host that drifts over a session moves both), and their range.
  paired() {
    paste -d' ' <(awk '{print $2}' "$work/$1.runs") <(awk '{print $2}' "$work/$2.runs") |
      awk '{print $1/$2}' | sort -g |
      awk '{r[NR]=$1} END{m=(NR%2)?r[(NR+1)/2]:(r[NR/2]+r[NR/2+1])/2; printf "%.2f (%.2f-%.2f)", m, r[1], r[NR]}'
  }
  row() { # name run ratio-text
    printf "%-3s %-22s %10s %8s %9.1f %8.1f  %s\n" "$n" "$1" "${S[$2]}" "${T[$2]}" \
      "$(awk -v m="${M[$2]}" 'BEGIN{print m/1024}')" "$(awk -v m="${M[$2]}" -v s="${S[$2]}" 'BEGIN{print m*1024/s}')" "$3"
  }
  [ -z "${S[spin]:-}" ] || row "spin crcanon, 1 core" spin "1"
  w1=""
  [ -z "${S[spin]:-}" ] || w1="x$(paired spin w1) SPIN (target 3.3)"
  row "mc --safety, 1 core" w1 "$w1"
  row "mc --safety, 2 workers" w2 "x$(paired w1 w2) one worker (target 1.75)"
  row "mc default, 1 core" default "x$(paired default w1) the time of --safety (target at most 1.15)"
  row "mc $base --safety" base "current build x$(paired base w1) faster"
  unset S T M
done
