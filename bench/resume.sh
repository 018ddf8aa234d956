#!/usr/bin/env bash
# Measures what a resumed run costs against a fresh one, on the canonical
# Chang–Roberts model, descending ids, --safety, one worker, no run store:
#
#   fresh   the whole run;
#   prefix  a fresh run stopped (--max-states) at the last state of the
#           level the checkpoint holds: the part of the fresh run that the
#           resume does not redo;
#   resume  --resume of a checkpoint taken at the last level boundary
#           before 60% of the states (a run with --checkpoint-every 0 and
#           --max-states at 60%, stopped there), each time from a copy of
#           it.
#
# The time left is the fresh run's time after the checkpoint's level:
# fresh − prefix, in user CPU seconds (one worker: the CPU time is the
# search's, and less disturbed than wall time by the machine's other
# load). docs/performance.md ("Resume") asks of a resume at most 1.1 × the
# time left, and a peak RSS at most 1.1 × the fresh run's.
#
# Each run is repeated REPS times (default 3), the three kinds interleaved;
# the fastest user time and the lowest peak of each kind count. MC=path
# measures that binary instead of building one from this tree (a
# development build resumes only its own checkpoints, so one binary makes
# them all).
#
# Usage: bench/resume.sh [n]   (default 11)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-11}
reps=${REPS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mc=${MC:-}
if [ -z "$mc" ]; then
  go build -o "$work/mc" ./cmd/mc
  mc=$work/mc
fi
args=(check changroberts --n "$n" --ids "$(seq -s, "$n" -1 1)" --safety --workers 1 --no-db)

# run ARGS...: runs mc under /usr/bin/time; prints "states user wall
# maxrss_kb" and leaves mc's output in $work/out.
run() {
  local status=0
  /usr/bin/time -f "%U %e %M" -o "$work/time" "$mc" "$@" >"$work/out" 2>&1 || status=$?
  if [ "$status" != 0 ] && [ "$status" != 3 ]; then
    echo "resume.sh: mc $* exited $status:" >&2
    cat "$work/out" >&2
    exit 1
  fi
  local states
  states=$(grep -oE '^ *[0-9]+ distinct states' "$work/out" | grep -oE '[0-9]+' | head -1 || true)
  echo "${states:-?} $(tail -1 "$work/time")"
}

# best KIND USER WALL KB: keeps the fastest user time (with its wall time)
# and the lowest peak of KIND.
declare -A user wall peak
best() {
  if [ -z "${user[$1]:-}" ] || awk -v a="$2" -v b="${user[$1]}" 'BEGIN{exit !(a < b)}'; then
    user[$1]=$2
    wall[$1]=$3
  fi
  if [ -z "${peak[$1]:-}" ] || [ "$4" -lt "${peak[$1]}" ]; then
    peak[$1]=$4
  fi
}

read -r total u w m < <(run "${args[@]}")
[ "${total:-?}" != "?" ] || { echo "resume.sh: the fresh run failed" >&2; exit 1; }
best fresh "$u" "$w" "$m"
run "${args[@]}" --checkpoint "$work/ckpt" --checkpoint-every 0 --max-states $((total * 6 / 10)) >/dev/null
read -r level saved < <(sed -nE 's/^checkpoint: level ([0-9]+), ([0-9]+) states.*/\1 \2/p' "$work/out")
[ -n "${saved:-}" ] || { echo "resume.sh: the interrupted run saved no checkpoint:" >&2; cat "$work/out" >&2; exit 1; }

for rep in $(seq "$reps"); do
  if [ "$rep" -gt 1 ]; then
    read -r s u w m < <(run "${args[@]}")
    [ "$s" = "$total" ] || { echo "resume.sh: a fresh run found $s states, another $total" >&2; exit 1; }
    best fresh "$u" "$w" "$m"
  fi
  read -r s u w m < <(run "${args[@]}" --max-states "$saved")
  [ "$s" = "$saved" ] || { echo "resume.sh: the prefix stopped at $s states, not the checkpoint's $saved" >&2; exit 1; }
  best prefix "$u" "$w" "$m"
  rm -rf "$work/resumed"
  cp -r "$work/ckpt" "$work/resumed"
  read -r s u w m < <(run check --resume "$work/resumed" --workers 1 --no-db)
  [ "$s" = "$total" ] || { echo "resume.sh: the resume found $s states, the fresh run $total" >&2; exit 1; }
  best resume "$u" "$w" "$m"
done

echo "changroberts n=$n --safety --workers 1: $total states; checkpoint at level $level, $saved states; fastest of $reps"
printf "%-7s %9s %9s %9s\n" run user-s wall-s "peak MiB"
for k in fresh prefix resume; do
  printf "%-7s %9s %9s %9.1f\n" "$k" "${user[$k]}" "${wall[$k]}" "$(awk -v k="${peak[$k]}" 'BEGIN{print k/1024}')"
done
awk -v s="$saved" -v t="$total" -v f="${user[fresh]}" -v p="${user[prefix]}" -v r="${user[resume]}" \
  -v fm="${peak[fresh]}" -v rm="${peak[resume]}" 'BEGIN{
  left = f - p
  printf "states left        %.3f of the fresh run'\''s\n", (t - s) / t
  printf "time left          %.3f of the fresh run'\''s (fresh - prefix = %.2f s)\n", left / f, left
  printf "resume time        %.3f of the fresh run'\''s, %.3f of the time left (at most 1.10)\n", r / f, r / left
  printf "resume peak        %.3f of the fresh run'\''s (at most 1.10)\n", rm / fm
}'
