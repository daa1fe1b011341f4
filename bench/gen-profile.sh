#!/bin/sh
# bench/gen-profile.sh N - a valid profile with N mounts, for compile-time measurements.
# A read-only host /usr, a tmpfs /bench with N-2 nested mounts under it (groups of
# directories with tmpfs, dir and bind children, declared children first so the sort
# has work to do).
set -eu
n=$1
echo "name: bench-$n"
echo "mounts:"
awk -v n="$n" 'BEGIN {
    print "  - type: ro-bind\n    source: /usr\n    target: /usr"
    for (i = 0; i < n - 2; i++) {
        g = int(i / 10)
        if (i % 10 == 0)
            printf "  - type: dir\n    target: /bench/g%d\n", g
        else if (i % 3 == 0)
            printf "  - type: bind\n    source: /tmp\n    target: /bench/g%d/b%d\n", g, i
        else if (i % 3 == 1)
            printf "  - type: tmpfs\n    target: /bench/g%d/t%d\n    size: 1M\n", g, i
        else
            printf "  - type: dir\n    target: /bench/g%d/t%d/d\n", g, i - 1
    }
    print "  - type: tmpfs\n    target: /bench"
}'
