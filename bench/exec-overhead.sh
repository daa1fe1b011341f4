#!/bin/bash
# bench/exec-overhead.sh [BUILD] - start-up cost of the runtime: the median wall time of
# `nook-exec plan.json -- true` and of `agent-nook run true` against the same bwrap
# arguments run directly, measured side by side (interleaved), 41 runs each, with the
# default profile, from an empty project directory. /bin/true is measured alongside: a
# wrapper cannot cost less than one more process start.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/release}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$tmp/project" "$XDG_CONFIG_HOME/agent-nook"
cp "$here/../profiles/default.yaml" "$XDG_CONFIG_HOME/agent-nook/sandbox.yaml"
cd "$tmp/project"
export PWD="$tmp/project"
"$build/nookc" --emit json -o "$tmp/plan.json" "$here/../profiles/default.yaml"
"$build/nookc" --emit argv -o "$tmp/argv" "$here/../profiles/default.yaml" -- true
mapfile -d '' args <"$tmp/argv"
bwrap=$(command -v bwrap)
"$build/nook-exec" "$tmp/plan.json" -- true # warm the probe cache
"$build/agent-nook" run true
runs=${RUNS:-41}
direct=() exec=() cli=() base=()
# Microseconds from $EPOCHREALTIME: no fork, unlike $(date), which would be timed too.
for _ in $(seq "$runs"); do
    s=${EPOCHREALTIME/./}; /bin/true; e=${EPOCHREALTIME/./}; base+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$bwrap" "${args[@]}" >/dev/null; e=${EPOCHREALTIME/./}; direct+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$build/nook-exec" "$tmp/plan.json" -- true >/dev/null; e=${EPOCHREALTIME/./}; exec+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$build/agent-nook" run true >/dev/null; e=${EPOCHREALTIME/./}; cli+=($((e - s)))
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
d=$(med "${direct[@]}") x=$(med "${exec[@]}") c=$(med "${cli[@]}") b=$(med "${base[@]}")
printf '%-34s %10s %8s\n' "command ($runs runs, interleaved)" "median ms" "ratio"
printf '%-34s %10.2f %8s\n' "bwrap ARGS -- true (direct)" "$(echo "$d / 1000" | bc -l)" "1.000"
printf '%-34s %10.2f %8.3f\n' "nook-exec plan.json -- true" "$(echo "$x / 1000" | bc -l)" "$(echo "$x / $d" | bc -l)"
printf '%-34s %10.2f %8.3f\n' "agent-nook run true" "$(echo "$c / 1000" | bc -l)" "$(echo "$c / $d" | bc -l)"
printf '%-34s %10.2f\n' "/bin/true (one process start)" "$(echo "$b / 1000" | bc -l)"
# A wrapper costs at least one more process start; what the tools add beyond that:
printf 'nook-exec beyond one process start: %.2f ms; agent-nook: %.2f ms\n' \
    "$(echo "($x - $d - $b) / 1000" | bc -l)" "$(echo "($c - $d - $b) / 1000" | bc -l)"
