#!/bin/bash
# bench/exec-overhead.sh [BUILD [STATIC_BUILD]] - start-up cost of the runtime: the median
# wall time of `nook-exec plan.json -- true` and of `agent-nook run true` against the
# same bwrap arguments run directly, measured side by side (interleaved), 41 runs each,
# with the default profile, from an empty project directory. STATIC_BUILD (a
# `make LINK=static` build) adds its two programs to the same loop. /bin/true is
# measured alongside, and so is bench/min-wrapper.c (spawn bwrap, wait, nothing else;
# linked static): the floor any supervising wrapper pays on this machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/release}" && pwd)
static=${2:+$(cd "$2" && pwd)}
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
${CC:-cc} -O2 -static-pie -o "$tmp/min-wrapper" "$here/min-wrapper.c"
"$build/nook-exec" "$tmp/plan.json" -- true # warm the probe cache
"$build/agent-nook" run true
[ -z "$static" ] || { "$static/nook-exec" "$tmp/plan.json" -- true; "$static/agent-nook" run true; }
runs=${RUNS:-41}
direct=() exec=() cli=() base=() sexec=() scli=() wrap=()
# Microseconds from $EPOCHREALTIME: no fork, unlike $(date), which would be timed too.
for _ in $(seq "$runs"); do
    s=${EPOCHREALTIME/./}; /bin/true; e=${EPOCHREALTIME/./}; base+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$bwrap" "${args[@]}" >/dev/null; e=${EPOCHREALTIME/./}; direct+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$tmp/min-wrapper" "$bwrap" "${args[@]}" >/dev/null; e=${EPOCHREALTIME/./}; wrap+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$build/nook-exec" "$tmp/plan.json" -- true >/dev/null; e=${EPOCHREALTIME/./}; exec+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$build/agent-nook" run true >/dev/null; e=${EPOCHREALTIME/./}; cli+=($((e - s)))
    [ -n "$static" ] || continue
    s=${EPOCHREALTIME/./}; "$static/nook-exec" "$tmp/plan.json" -- true >/dev/null; e=${EPOCHREALTIME/./}; sexec+=($((e - s)))
    s=${EPOCHREALTIME/./}; "$static/agent-nook" run true >/dev/null; e=${EPOCHREALTIME/./}; scli+=($((e - s)))
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
w=$(med "${wrap[@]}") d=$(med "${direct[@]}") x=$(med "${exec[@]}") c=$(med "${cli[@]}") b=$(med "${base[@]}")
printf '%-34s %10s %8s\n' "command ($runs runs, interleaved)" "median ms" "ratio"
printf '%-34s %10.2f %8s\n' "bwrap ARGS -- true (direct)" "$(echo "$d / 1000" | bc -l)" "1.000"
printf '%-34s %10.2f %8.3f\n' "min-wrapper bwrap ARGS (the floor)" "$(echo "$w / 1000" | bc -l)" "$(echo "$w / $d" | bc -l)"
printf '%-34s %10.2f %8.3f\n' "nook-exec plan.json -- true" "$(echo "$x / 1000" | bc -l)" "$(echo "$x / $d" | bc -l)"
printf '%-34s %10.2f %8.3f\n' "agent-nook run true" "$(echo "$c / 1000" | bc -l)" "$(echo "$c / $d" | bc -l)"
if [ -n "$static" ]; then
    sx=$(med "${sexec[@]}") sc=$(med "${scli[@]}")
    printf '%-34s %10.2f %8.3f\n' "nook-exec (LINK=static)" "$(echo "$sx / 1000" | bc -l)" "$(echo "$sx / $d" | bc -l)"
    printf '%-34s %10.2f %8.3f\n' "agent-nook run (LINK=static)" "$(echo "$sc / 1000" | bc -l)" "$(echo "$sc / $d" | bc -l)"
    static_extra=$(printf ' (LINK=static: %.2f and %.2f ms)' "$(echo "($sx - $w) / 1000" | bc -l)" "$(echo "($sc - $w) / 1000" | bc -l)")
fi
printf '%-34s %10.2f\n' "/bin/true (one process start)" "$(echo "$b / 1000" | bc -l)"
# A wrapper costs at least what min-wrapper costs; what the tools add beyond that:
printf 'beyond the floor: nook-exec %.2f ms, agent-nook %.2f ms%s\n' \
    "$(echo "($x - $w) / 1000" | bc -l)" "$(echo "($c - $w) / 1000" | bc -l)" "${static_extra:-}"
