#!/usr/bin/env bash
# Does a simulation of every election spec complete at a large ring? One
# run of each (seed 1, --random-ids, one worker) at n (default 4096), with
# its verdict, messages, steps and CPU time; exits 1 if any run does not
# end in "no violation". vlt runs with every link oriented alike
# (--orientation 0…0: without it the system starts from all 2^n
# orientation assignments); vitanyi is refused beyond n = 12 (its message
# M_j is held 2^j time units, and the spec keeps timers within 4,096), so
# it runs at 12. Usage: bench/simulate-large.sh [n] (docs/simulate.md).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-4096}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mc" ./cmd/mc
orientation=$(printf '0%.0s' $(seq "$n"))
status=0
one() { # one LABEL N ARGS...: one run, summarised on one line
  local label=$1 size=$2
  shift 2
  if ! /usr/bin/time -f "%U" -o "$work/cpu" "$work/mc" simulate "$@" --n "$size" --random-ids --runs 1 --seed 1 --workers 1 --json >"$work/out.json" 2>"$work/err"; then
    status=1
  fi
  python3 - "$label" "$size" "$(cat "$work/cpu")" "$work/out.json" <<'PY' || status=1
import json, sys
label, size, cpu, path = sys.argv[1:]
try:
    d = json.load(open(path))
except ValueError:
    print(f"{label:<32} n={size}: no report"); sys.exit(1)
m = d["messages"]
print(f"{label:<32} n={size}: {d['verdict']}, messages {m['max'] if m else '—'}, steps {d['steps']['max']}, {cpu} s CPU")
sys.exit(0 if d["verdict"] == "no violation" else 1)
PY
}
one changroberts "$n" changroberts
one "changroberts all-initiate" "$n" changroberts --variant all-initiate
one lelann "$n" lelann
one dkr "$n" dkr
one hp "$n" hp
one franklin "$n" franklin
one hs "$n" hs
one "vlt --orientation 0…0" "$n" vlt --orientation "$orientation"
one vitanyi "$(( n < 12 ? n : 12 ))" vitanyi
exit $status
