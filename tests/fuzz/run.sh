#!/bin/bash
# tests/fuzz/run.sh SECONDS [TARGET...] - runs each libFuzzer target (make fuzz) for
# SECONDS on its seed corpus (tests/fuzz/corpus/TARGET/, never written) plus a scratch
# corpus, TAP output. A crash, leak, timeout or sanitizer report fails the target; the
# reproducer is kept in build/fuzz/crashes/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(profile plan shell parsers)
mkdir -p "$root/build/fuzz/crashes"
n=0
fail=0
for t in "${targets[@]}"; do
    n=$((n + 1))
    bin=$root/build/fuzz/fuzz-$t
    work=$(mktemp -d)
    log=$(mktemp)
    # -timeout: one input may take 10 s at most; -rss_limit_mb: 1 GiB.
    (cd "$root" && HOME=/home/fuzz PWD=/home/fuzz/project "$bin" -max_total_time="$secs" \
        -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="$root/build/fuzz/crashes/$t-" "$work" "$here/corpus/$t") >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "ok $n - fuzz-$t: ${runs:-?} inputs in ${secs}s, no crash"
    else
        echo "not ok $n - fuzz-$t: exit $rc after ${runs:-?} inputs"
        grep -E 'ERROR|SUMMARY|==[0-9]+==|Test unit written' "$log" | head -20 | sed 's/^/# /'
        fail=1
    fi
    rm -rf "$work" "$log"
done
echo "1..$n"
exit $fail
