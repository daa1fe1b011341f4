#!/bin/bash
# bench/exec-overhead.sh [BUILD] - start-up cost of the runtime: the median wall time of
# `nook-exec plan.json -- true` and of `agent-nook run true` against the same bwrap
# arguments run directly, measured side by side (interleaved), 41 runs each, with the
# default profile, from an empty project directory.
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
direct=() exec=() cli=()
ns() { date +%s%N; }
for _ in $(seq "$runs"); do
    s=$(ns); "$bwrap" "${args[@]}" >/dev/null; e=$(ns); direct+=($(((e - s) / 1000)))
    s=$(ns); "$build/nook-exec" "$tmp/plan.json" -- true >/dev/null; e=$(ns); exec+=($(((e - s) / 1000)))
    s=$(ns); "$build/agent-nook" run true >/dev/null; e=$(ns); cli+=($(((e - s) / 1000)))
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
d=$(med "${direct[@]}") x=$(med "${exec[@]}") c=$(med "${cli[@]}")
printf '%-34s %10s %8s\n' "command ($runs runs, interleaved)" "median ms" "ratio"
printf '%-34s %10.2f %8s\n' "bwrap ARGS -- true (direct)" "$(echo "$d / 1000" | bc -l)" "1.000"
printf '%-34s %10.2f %8.3f\n' "nook-exec plan.json -- true" "$(echo "$x / 1000" | bc -l)" "$(echo "$x / $d" | bc -l)"
printf '%-34s %10.2f %8.3f\n' "agent-nook run true" "$(echo "$c / 1000" | bc -l)" "$(echo "$c / $d" | bc -l)"
