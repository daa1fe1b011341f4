#!/bin/bash
# tests/run.sh [unit] [golden] [integration] [fuzz] - runs the test suites (the first
# three by default; fuzz needs `make fuzz`).
#
# Every suite speaks TAP ("ok N - name" / "not ok N - name"); this script runs them,
# counts the results and ends with the line "N passed, N failed". It exits non-zero
# when anything failed or a suite crashed. BUILD names the build directory
# (default build/debug); VALGRIND=1 runs the unit tests and nookc under memcheck.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/debug}
export BUILD
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(unit golden integration)

passed=0
failed=0
crashed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs one TAP producer, echoes its output and adds its results to the totals.
run_tap() {
    local name=$1
    shift
    "$@" >"$log" 2>&1
    local rc=$?
    cat "$log"
    local ok notok
    ok=$(grep -c '^ok ' "$log")
    notok=$(grep -c '^not ok ' "$log")
    passed=$((passed + ok))
    failed=$((failed + notok))
    if [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ]; then
        echo "# $name exited with status $rc without a failing test"
        crashed=$((crashed + 1))
    fi
    if [ "$ok" -eq 0 ] && [ "$notok" -eq 0 ]; then
        echo "# $name ran no test"
        crashed=$((crashed + 1))
    fi
}

vg=()
if [ "${VALGRIND:-0}" = 1 ]; then
    vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
fi

for suite in "${suites[@]}"; do
    case $suite in
    unit)
        for t in "$BUILD"/tests/test-*; do
            [ -x "$t" ] || continue
            echo "# unit: $(basename "$t")"
            run_tap "$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "${vg[@]}" "$t"
        done
        ;;
    golden)
        echo "# golden"
        run_tap golden tests/golden/run.sh
        ;;
    integration)
        echo "# integration"
        run_tap integration tests/integration/run.sh
        ;;
    fuzz)
        echo "# fuzz (${FUZZ_SECONDS:-30} s per target)"
        run_tap fuzz tests/fuzz/run.sh "${FUZZ_SECONDS:-30}"
        ;;
    *)
        echo "tests/run.sh: unknown suite '$suite'" >&2
        exit 2
        ;;
    esac
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$crashed" -eq 0 ]
