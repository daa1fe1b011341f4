#!/bin/bash
# bench/compile-time.sh [NOOKC] - median wall time of `nookc --check` on generated
# profiles of 100, 1,000 and 10,000 mounts (11 runs each), and the 10k/1k ratio.
# 10,000 mounts need more than bwrap's 9,000 arguments, so that profile is rejected by
# the last check; the time still covers every stage of the compiler.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nookc=${1:-$here/../build/release/nookc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median_ms() { # median_ms FILE: median wall time of nookc --check FILE, in ms
    local t=()
    for _ in $(seq 11); do
        local s e
        # $EPOCHREALTIME needs no fork (a $(date) would be timed too).
        s=${EPOCHREALTIME/./}000
        "$nookc" --check "$1" >/dev/null 2>&1 || true
        e=${EPOCHREALTIME/./}000
        t+=($(((e - s) / 1000)))
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n 6p | awk '{printf "%.2f", $1 / 1000}'
}
printf '%-8s %12s\n' mounts "median ms"
declare -A m
for n in 100 1000 10000; do
    "$here/gen-profile.sh" "$n" >"$tmp/p$n.yaml"
    m[$n]=$(median_ms "$tmp/p$n.yaml")
    printf '%-8s %12s\n' "$n" "${m[$n]}"
done
awk -v a="${m[10000]}" -v b="${m[1000]}" 'BEGIN { printf "10k/1k ratio: %.1f (n log n predicts about 13.3)\n", a / b }'
