#!/bin/bash
# bench/compile-time.sh [NOOKC] - median wall time of `nookc --check` on generated
# profiles of 100, 1,000 and 10,000 mounts, and the 10k/1k ratio: 21 rounds ($ROUNDS), each
# compiling the three once in a random order (on a VM a run can be slowed by the memory
# the run before it freed, so a fixed order would bias the sizes against each other).
# 10,000 mounts need more than bwrap's 9,000 arguments, so that profile is rejected by
# the last check; the time still covers every stage of the compiler. Then `nookc lint`
# on 100, 1,000 and 2,900 mounts (about the most that fits in 9,000 arguments), timed
# the same way.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nookc=${1:-$here/../build/release/nookc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sizes=(100 1000 10000)
lint_sizes=(100 1000 2900)
declare -A t
jobs=()
for n in "${sizes[@]}"; do jobs+=("check $n"); done
for n in "${lint_sizes[@]}"; do jobs+=("lint $n"); done
for job in "${jobs[@]}"; do
    n=${job#* }
    [ -f "$tmp/p$n.yaml" ] || "$here/gen-profile.sh" "$n" >"$tmp/p$n.yaml"
    t[$job]=
done
rounds=${ROUNDS:-21}
for _ in $(seq "$rounds"); do
    while read -r what n; do
        # $EPOCHREALTIME needs no fork (a $(date) would be timed too); microseconds.
        s=${EPOCHREALTIME/./}
        if [ "$what" = check ]; then
            "$nookc" --check "$tmp/p$n.yaml" >/dev/null 2>&1 || true
        else
            "$nookc" lint "$tmp/p$n.yaml" >/dev/null 2>&1 || true
        fi
        e=${EPOCHREALTIME/./}
        t[$what $n]+=" $((e - s))"
    done < <(printf '%s\n' "${jobs[@]}" | shuf)
done
median_ms() { printf '%s\n' $1 | sort -n | sed -n "$(((rounds + 1) / 2))p" | awk '{printf "%.2f", $1 / 1000}'; }
printf '%-8s %12s\n' mounts "median ms"
declare -A m
for n in "${sizes[@]}"; do
    m[$n]=$(median_ms "${t[check $n]}")
    printf '%-8s %12s\n' "$n" "${m[$n]}"
done
awk -v a="${m[10000]}" -v b="${m[1000]}" 'BEGIN { printf "10k/1k ratio: %.1f (n log n predicts about 13.3)\n", a / b }'
for n in "${lint_sizes[@]}"; do
    printf '%-8s %12s  (nookc lint)\n' "$n" "$(median_ms "${t[lint $n]}")"
done
