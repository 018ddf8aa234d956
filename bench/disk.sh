#!/usr/bin/env bash
# Compares mc's disk mode (--store disk) with its memory mode on the
# canonical Chang–Roberts model, descending ids, --safety: distinct states,
# seconds, states/s and peak memory (peak RSS, everything included) side by
# side, and the disk run's peak as a fraction of the memory run's.
#
# With --cgroup (as root, with a cgroup v1 or v2 memory controller) it then
# runs both modes again inside a memory cgroup limited to a tenth of the
# memory run's peak: the disk run must complete with the same count (its
# file pages are charged to the cgroup too, and reclaimed), the memory run
# is expected to be killed by the OOM killer.
#
# Usage: bench/disk.sh [--cgroup] [n ...]   (default 11 12)
set -euo pipefail
cd "$(dirname "$0")/.."
cgroup=0
if [ "${1:-}" = "--cgroup" ]; then
  cgroup=1
  shift
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(11 12)
work=$(mktemp -d)
cg=""
cleanup() {
  [ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/mc" ./cmd/mc

# run LIMIT_BYTES ARGS...: runs mc with ARGS under /usr/bin/time, inside a
# fresh memory cgroup limited to LIMIT_BYTES unless it is 0; prints
# "states seconds maxrss_kb exit cgroup_peak_bytes oom_kills".
run() {
  local limit=$1
  shift
  rm -rf "$work/store"
  local out="$work/out" tm="$work/time" status=0 peak=- ooms=-
  if [ "$limit" = 0 ]; then
    /usr/bin/time -f "%e %M" -o "$tm" "$work/mc" "$@" >"$out" 2>&1 || status=$?
  else
    if [ -d /sys/fs/cgroup/memory ]; then # v1
      cg=/sys/fs/cgroup/memory/mc-bench-$$
      mkdir "$cg"
      echo "$limit" >"$cg/memory.limit_in_bytes"
    else # v2
      cg=/sys/fs/cgroup/mc-bench-$$
      mkdir "$cg"
      echo "$limit" >"$cg/memory.max"
    fi
    bash -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
      /usr/bin/time -f "%e %M" -o "$tm" "$work/mc" "$@" >"$out" 2>&1 || status=$?
    if [ -f "$cg/memory.max_usage_in_bytes" ]; then
      peak=$(cat "$cg/memory.max_usage_in_bytes")
      ooms=$(awk '/^oom_kill /{print $2}' "$cg/memory.oom_control")
    else
      peak=$(cat "$cg/memory.peak" 2>/dev/null || echo -)
      ooms=$(awk '/^oom_kill /{print $2}' "$cg/memory.events")
    fi
    rmdir "$cg"
    cg=""
  fi
  local states
  states=$(grep -oE '^ *[0-9]+ distinct states' "$out" | grep -oE '[0-9]+' | head -1 || true)
  if [ -s "$tm" ] && tail -1 "$tm" | grep -qE '^[0-9.]+ [0-9]+$'; then
    echo "${states:-?} $(tail -1 "$tm") $status $peak $ooms"
  else
    echo "${states:-?} ? ? $status $peak $ooms"
  fi
}

mib() { awk -v k="$1" 'BEGIN{ if (k == "?") print "?"; else printf "%.1f", k/1024 }'; }

printf "%-3s %-22s %11s %8s %10s %9s %7s %s\n" n mode states seconds states/s "peak MiB" B/state "vs memory"
for n in "${sizes[@]}"; do
  args=(check changroberts --n "$n" --safety)
  read -r ms mt mm _ < <(run 0 "${args[@]}")
  read -r ds dt dm _ < <(run 0 "${args[@]}" --store disk --dir "$work/store")
  for row in "memory $ms $mt $mm" "disk $ds $dt $dm"; do
    read -r mode s t m <<<"$row"
    printf "%-3s %-22s %11s %8s %10.0f %9s %7.1f %s\n" "$n" "$mode" "$s" "$t" "$(awk -v s="$s" -v t="$t" 'BEGIN{print s/t}')" \
      "$(mib "$m")" "$(awk -v m="$m" -v s="$s" 'BEGIN{print m*1024/s}')" \
      "$(awk -v m="$m" -v b="$mm" -v t="$t" -v bt="$mt" 'BEGIN{printf "memory x%.3f (1/%.1f), time x%.2f", m/b, b/m, t/bt}')"
  done
  [ "$ds" = "$ms" ] || { echo "disk.sh: n=$n: disk mode found $ds states, memory mode $ms" >&2; exit 1; }
  if [ "$cgroup" = 1 ]; then
    limit=$((mm * 1024 / 10))
    for mode in disk memory; do
      extra=()
      [ "$mode" = memory ] || extra=(--store disk --dir "$work/store")
      read -r s t m status peak ooms < <(run "$limit" "${args[@]}" "${extra[@]}")
      printf "%-3s %-22s %11s %8s %10s %9s %7s exit %s; cgroup peak %s MiB (page cache included), OOM kills %s\n" "$n" \
        "$mode, cgroup $(awk -v l="$limit" 'BEGIN{printf "%.0f", l/1048576}') MiB" "$s" "$t" \
        "$(awk -v s="$s" -v t="$t" 'BEGIN{ if (s ~ /^[0-9]+$/ && t+0 > 0) printf "%.0f", s/t; else print "-" }')" "$(mib "$m")" - "$status" \
        "$(awk -v p="$peak" 'BEGIN{ if (p ~ /^[0-9]+$/) printf "%.1f", p/1048576; else print "?" }')" "$ooms"
    done
  fi
done
