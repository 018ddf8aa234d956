#!/usr/bin/env bash
# What liveness costs: mc's default run (safety and liveness) against its
# --safety run, with 1 and 2 workers, and against SPIN's liveness search
# (pan -a -f, weak fairness) of "eventually a leader" on the same
# Chang–Roberts model (bench/changroberts.pml, descending ids), in one run on
# this machine. SPIN runs only when it is installed (Debian: apt-get install
# spin). Usage: bench/liveness.sh [n ...] (default 10 11). Each run is made
# REPS times (default 3), interleaved, and the fastest is shown; peak memory
# is the maximum resident set of that run. Ratios: time and memory of the
# default run over the --safety run of the same worker count; the 2-worker
# speed-up of the default run; SPIN's time and memory over mc's default run.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 11)
reps=${REPS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mc" ./cmd/mc

# measure COMMAND...: runs COMMAND under /usr/bin/time and prints
# "seconds maxrss_kb"; the command's output is kept in $work/out.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>&1 || true
  tail -1 "$work/time"
}

# fastest "seconds maxrss_kb" among lines on stdin.
fastest() { sort -k1,1n | head -1; }

# spin_model N: a copy of the model with the claim <> (some process is
# leader), the disjunction written out for N processes.
spin_model() {
  local n=$1 any="" i
  for ((i = 0; i < n; i++)); do any="$any${any:+ || }decided[$i] == 1"; done
  {
    echo "#define N $n"
    echo "#include \"$PWD/bench/changroberts.pml\""
    echo "ltl eventually_leader { <> ($any) }"
  } >"$work/live.pml"
}

printf "%-4s %-22s %9s %9s   %s\n" n run seconds "peak MiB" ratio
for n in "${sizes[@]}"; do
  have_spin=0
  if command -v spin >/dev/null 2>&1; then
    spin_model "$n"
    (cd "$work" && spin -a live.pml >/dev/null && gcc -O2 -DNOREDUCE -DNFAIR=$((n + 2)) -DMEMLIM=20000 -o pan pan.c)
    have_spin=1
  fi
  for r in spin s1 d1 s2 d2; do : >"$work/$r.runs"; done
  for ((i = 0; i < reps; i++)); do
    for w in 1 2; do
      measure "$work/mc" check changroberts --n "$n" --workers "$w" --safety --no-db >>"$work/s$w.runs"
      measure "$work/mc" check changroberts --n "$n" --workers "$w" --no-db >>"$work/d$w.runs"
      grep -q '^verdict: pass' "$work/out" || { echo "liveness: mc's default run at n = $n did not pass" >&2; cat "$work/out" >&2; exit 1; }
    done
    if [ "$have_spin" = 1 ]; then
      (cd "$work" && measure ./pan -a -f -m100000 -w24 >>"$work/spin.runs")
      grep -q 'errors: 0' "$work/out" || { echo "liveness: SPIN found an error at n = $n" >&2; cat "$work/out" >&2; exit 1; }
    fi
  done
  read -r d1t d1m < <(fastest <"$work/d1.runs")
  for w in 1 2; do
    read -r st sm < <(fastest <"$work/s$w.runs")
    read -r dt dm < <(fastest <"$work/d$w.runs")
    printf "%-4s %-22s %9s %9.1f\n" "$n" "mc --safety, $w worker$([ "$w" = 1 ] || echo s)" "$st" "$(awk -v m="$sm" 'BEGIN{print m/1024}')"
    printf "%-4s %-22s %9s %9.1f   time x%s, memory x%s of --safety" "$n" "mc default, $w worker$([ "$w" = 1 ] || echo s)" "$dt" \
      "$(awk -v m="$dm" 'BEGIN{print m/1024}')" \
      "$(awk -v a="$dt" -v b="$st" 'BEGIN{printf "%.2f", a/b}')" "$(awk -v a="$dm" -v b="$sm" 'BEGIN{printf "%.2f", a/b}')"
    [ "$w" = 1 ] || printf "; x%s faster than 1 worker" "$(awk -v a="$d1t" -v b="$dt" 'BEGIN{printf "%.2f", a/b}')"
    echo
  done
  if [ "$have_spin" = 1 ]; then
    read -r pt pm < <(fastest <"$work/spin.runs")
    printf "%-4s %-22s %9s %9.1f   mc default (1 worker) x%s faster, x%s less memory\n" "$n" "spin pan -a -f" "$pt" \
      "$(awk -v m="$pm" 'BEGIN{print m/1024}')" \
      "$(awk -v a="$pt" -v b="$d1t" 'BEGIN{printf "%.2f", a/b}')" "$(awk -v a="$pm" -v b="$d1m" 'BEGIN{printf "%.2f", a/b}')"
  fi
done
