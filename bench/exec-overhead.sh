#!/bin/bash
# bench/exec-overhead.sh [BUILD [STATIC_BUILD]] - start-up cost of the runtime: the median
# wall time of `nook-exec plan.json -- true` and of `agent-nook run true` against the
# same bwrap arguments run directly, measured side by side (41 rounds, each running every
# command once in a random order), with the default profile, from an empty project
# directory. STATIC_BUILD (a
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
# One measurement, in microseconds from $EPOCHREALTIME (no fork, unlike $(date), which
# would be timed too), appended to the array named after it.
measure() {
    local s e
    s=${EPOCHREALTIME/./}
    case $1 in
    base) /bin/true ;;
    direct) "$bwrap" "${args[@]}" >/dev/null ;;
    wrap) "$tmp/min-wrapper" "$bwrap" "${args[@]}" >/dev/null ;;
    exec) "$build/nook-exec" "$tmp/plan.json" -- true >/dev/null ;;
    cli) "$build/agent-nook" run true >/dev/null ;;
    sexec) "$static/nook-exec" "$tmp/plan.json" -- true >/dev/null ;;
    scli) "$static/agent-nook" run true >/dev/null ;;
    esac
    e=${EPOCHREALTIME/./}
    eval "$1+=($((e - s)))"
}
kinds=(base direct wrap exec cli)
[ -z "$static" ] || kinds+=(sexec scli)
# Each round runs every command once, in a fresh random order: on a VM a process can be
# slowed by what the one before it freed (the host reclaims freed guest memory, and
# touching it again costs a fault on the host), so a fixed order would favour some.
for _ in $(seq "$runs"); do
    for k in $(printf '%s\n' "${kinds[@]}" | shuf); do
        measure "$k"
    done
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
w=$(med "${wrap[@]}") d=$(med "${direct[@]}") x=$(med "${exec[@]}") c=$(med "${cli[@]}") b=$(med "${base[@]}")
printf '%-34s %10s %8s\n' "command ($runs rounds, shuffled)" "median ms" "ratio"
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
