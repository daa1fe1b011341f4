#!/bin/bash
# bench/exec-overhead.sh [BUILD] - start-up cost of nook-exec: the median wall time of
# `nook-exec plan.json -- true` against the same bwrap arguments run directly (a
# generated launch script with `exec bwrap ...`), measured side by side, interleaved,
# 41 runs each, with the default profile.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
"$build/nookc" --emit json -o "$tmp/plan.json" "$here/../profiles/default.yaml"
"$build/nookc" --emit argv -o "$tmp/argv" "$here/../profiles/default.yaml" -- true
mapfile -d '' args <"$tmp/argv"
bwrap=$(command -v bwrap)
"$build/nook-exec" "$tmp/plan.json" -- true # warm the probe cache
runs=41
declare -a direct exec
for i in $(seq $runs); do
    s=$(date +%s%N); "$bwrap" "${args[@]}" >/dev/null; e=$(date +%s%N)
    direct+=($(((e - s) / 1000)))
    s=$(date +%s%N); "$build/nook-exec" "$tmp/plan.json" -- true >/dev/null; e=$(date +%s%N)
    exec+=($(((e - s) / 1000)))
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
d=$(med "${direct[@]}")
x=$(med "${exec[@]}")
printf '%-34s %10s\n' "command" "median ms"
printf '%-34s %10.2f\n' "bwrap ARGS -- true (direct)" "$(echo "$d / 1000" | bc -l)"
printf '%-34s %10.2f\n' "nook-exec plan.json -- true" "$(echo "$x / 1000" | bc -l)"
printf 'ratio nook-exec/direct: %.3f\n' "$(echo "$x / $d" | bc -l)"
