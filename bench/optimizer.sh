#!/bin/bash
# bench/optimizer.sh [BUILD] - what the plan optimiser saves: a profile with redundant
# mounts (read-only binds of directories under the read-only bind of /, at the same
# paths) compiled with and without optimisation; the number of bwrap mount
# operations and the median start-up time of each argument vector (41 interleaved runs
# of `bwrap ARGS -- /usr/bin/true`).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/release}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
    echo "name: redundant"
    echo "mounts:"
    printf '  - {type: ro-bind, source: /, target: /}\n'
    printf '  - {type: tmpfs, target: /tmp}\n'
    # up to 40 directories of /usr/share and /usr/lib, bound again where they already are
    find /usr/share /usr/lib -mindepth 1 -maxdepth 1 -type d ! -type l 2>/dev/null | sort | head -40 |
        while read -r d; do printf '  - {type: ro-bind, source: %s, target: %s}\n' "$d" "$d"; done
    echo "unshare: {user: true, pid: true}"
} >"$tmp/p.yaml"
"$build/nookc" --emit argv -o "$tmp/opt" "$tmp/p.yaml" -- /usr/bin/true
"$build/nookc" --emit argv --no-optimize -o "$tmp/noopt" "$tmp/p.yaml" -- /usr/bin/true
mapfile -d '' a_opt <"$tmp/opt"
mapfile -d '' a_no <"$tmp/noopt"
count() { local n=0 a; for a in "$@"; do case $a in --ro-bind | --bind | --tmpfs) n=$((n + 1)) ;; esac; done; echo $n; }
runs=${RUNS:-41}
t_opt=() t_no=()
for _ in $(seq "$runs"); do
    s=${EPOCHREALTIME/./}; bwrap "${a_no[@]}"; e=${EPOCHREALTIME/./}; t_no+=($((e - s)))
    s=${EPOCHREALTIME/./}; bwrap "${a_opt[@]}"; e=${EPOCHREALTIME/./}; t_opt+=($((e - s)))
done
med() { printf '%s\n' "$@" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
no=$(med "${t_no[@]}") op=$(med "${t_opt[@]}")
printf '%-26s %12s %10s\n' "profile ($runs runs)" "mount ops" "median ms"
printf '%-26s %12s %10.2f\n' "--no-optimize" "$(count "${a_no[@]}")" "$(echo "$no / 1000" | bc -l)"
printf '%-26s %12s %10.2f\n' "optimised (default)" "$(count "${a_opt[@]}")" "$(echo "$op / 1000" | bc -l)"
printf 'start-up saved: %.2f ms (%.0f%%)\n' "$(echo "($no - $op) / 1000" | bc -l)" "$(echo "100 * ($no - $op) / $no" | bc -l)"
