#!/usr/bin/env bash
# Regenerates the README's pictures, docs/explorer.png and docs/chart.png,
# from the README's walkthrough, with Debian's headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/mc" ./cmd/mc
"$work/mc" check changroberts --variant raynal-literal --ids 3,1,4,2 --initiators 0 --trace-out "$work/t.json" >/dev/null || true
"$work/mc" trace "$work/t.json" --format svg >"$work/t.svg"

shot() { # shot OUT.png WIDTH,HEIGHT URL
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --hide-scrollbars --virtual-time-budget=5000 \
    --window-size="$2" --screenshot="$1" "$3" 2>/dev/null
}

size=$(sed -n 's/^<svg[^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$work/t.svg")
shot docs/chart.png "$size" "file://$work/t.svg"

"$work/mc" explore --trace "$work/t.json" --addr 127.0.0.1:0 >"$work/explore.log" 2>&1 &
server=$!
url=""
for _ in $(seq 50); do
  url=$(sed -n 's/^mc explore: open \(http[^ ]*\).*/\1/p' "$work/explore.log")
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "mc explore did not start:" >&2
  cat "$work/explore.log" >&2
  exit 1
fi
shot docs/explorer.png 1200,1000 "${url}?step=end"
echo "wrote docs/chart.png and docs/explorer.png"
