# tests/integration/lib.sh - shared helpers for the integration tests (bash).
#
# Sourced by every t-*.sh. tests/integration/run.sh provides, in the environment:
#   NOOKC          absolute path of the nookc binary under test
#   NOOK_EXEC      absolute path of the nook-exec binary under test (next to NOOKC)
#   AGENT_NOOK     absolute path of the agent-nook binary under test (next to NOOKC)
#   NOOK_TMP       a private, empty temp dir under /tmp owned by the running user;
#                  this library removes it on exit (the runner checks that it is gone)
#   NOOK_PROFILES  the directory holding the shipped profiles (default.yaml)
#   NOOK_USER      root or nobody (only for messages; tests look at `id -u`)
#
# TAP: tests print "ok - NAME" / "not ok - NAME" and "# comment" lines; the runner
# numbers them and appends the user. Every sandbox run is bounded by `timeout 30` and
# gets /dev/null as stdin.

set -u
export LC_ALL=C

: "${NOOKC:?NOOKC must name the nookc binary (run tests/integration/run.sh)}"
: "${NOOK_TMP:?NOOK_TMP must name a private temp dir (run tests/integration/run.sh)}"
: "${NOOK_PROFILES:?NOOK_PROFILES must name the profiles directory}"
NOOK_USER=${NOOK_USER:-$(id -un)}

T=$NOOK_TMP
# The shipped default profile binds the current directory read-write: give every test a
# clean, empty project directory as its cwd, so nothing the test makes in $T is bound.
mkdir -p "$T/project" && cd "$T/project" || exit 1
BWRAP=$(command -v bwrap || true)
SANDBOX_TIMEOUT=${SANDBOX_TIMEOUT:-30}
TEST_NAME=$(basename "$0" .sh)
_failed=0
_pids=()

# ---------------------------------------------------------------- cleanup

# track_pid PID: at exit, send SIGTERM to PID (and nothing else) if it is still alive
# (for a background `timeout ... sh SCRIPT`: timeout passes it on to bwrap, whose
# --die-with-parent ends the sandbox).
track_pid() { _pids+=("$1"); }

# marker_pids MARKER: pids of the processes whose argv, joined by spaces, equals
# MARKER exactly (e.g. "sleep 30 0.000123"); no process with MARKER in its own argv
# is started to look.
marker_pids() {
    local p a c
    for p in /proc/[0-9]*; do
        c=
        # bash builtins only: no process is forked per /proc entry
        { while IFS= read -r -d '' a; do c+="$a "; done <"$p/cmdline"; } 2>/dev/null
        [ "$c" = "$1 " ] && echo "${p#/proc/}"
    done
    return 0
}

# kill_marker MARKER: SIGKILL every process found by marker_pids, one id at a time.
kill_marker() {
    local pid
    for pid in $(marker_pids "$1"); do
        kill -KILL "$pid" 2>/dev/null
    done
    return 0
}

_markers=()
# track_marker MARKER: at exit, kill any process left with exactly this argv.
track_marker() { _markers+=("$1"); }

_cleanup() {
    local pid m
    for pid in "${_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null
    done
    for m in "${_markers[@]}"; do
        kill_marker "$m"
    done
    for pid in "${_pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
    # Files made inside the sandbox may be read-only dirs; make them removable.
    chmod -R u+rwX "$T" 2>/dev/null
    rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---------------------------------------------------------------- TAP

diag() { # diag LINE...: comment lines
    local l
    for l in "$@"; do
        printf '%s\n' "$l" | sed 's/^/# /'
    done
}

ok() { printf 'ok - %s\n' "$1"; }

not_ok() { # not_ok NAME [DIAG...]
    printf 'not ok - %s\n' "$1"
    shift
    _failed=1
    [ $# -eq 0 ] || diag "$@"
}

# check STATUS NAME [DIAG...]: ok when STATUS is 0
check() {
    local st=$1 name=$2
    shift 2
    if [ "$st" -eq 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi
}

# skip NAME REASON: an explicit, visible skip
skip() { printf 'ok - %s # SKIP %s\n' "$1" "$2"; }

# show_file LABEL FILE: up to 20 lines of FILE as comments, NULs and tabs made visible
show_file() {
    [ -s "$2" ] || {
        echo "$1: (empty)"
        return
    }
    echo "$1:"
    head -c 4000 "$2" | tr '\0' '@' | head -n 20 | sed 's/^/  | /'
}

# show_run: the last run's status, stdout and stderr, for diagnostics
show_run() {
    echo "status: $RC"
    show_file stdout "$OUT"
    show_file stderr "$ERR"
}

assert_eq() { # assert_eq EXPECTED ACTUAL NAME
    if [ "$1" = "$2" ]; then
        ok "$3"
    else
        not_ok "$3" "expected: $(printf '%q' "$1")" "actual:   $(printf '%q' "$2")"
    fi
}

assert_ne() { # assert_ne UNEXPECTED ACTUAL NAME
    if [ "$1" != "$2" ]; then
        ok "$3"
    else
        not_ok "$3" "both are: $(printf '%q' "$1")"
    fi
}

assert_empty_str() { # assert_empty_str VALUE NAME: VALUE is empty (else shown)
    if [ -z "$1" ]; then ok "$2"; else not_ok "$2" "got: $1"; fi
}

assert_nonempty_str() { # assert_nonempty_str VALUE NAME
    if [ -n "$1" ]; then ok "$2"; else not_ok "$2" "got nothing"; fi
}

assert_status() { # assert_status EXPECTED NAME: the last run's status ($RC)
    if [ "$RC" -eq "$1" ]; then
        ok "$2"
    else
        not_ok "$2" "expected status $1" "$(show_run)"
    fi
}

assert_grep() { # assert_grep ERE FILE NAME: FILE has a line matching ERE
    if grep -Eq -- "$1" "$2"; then
        ok "$3"
    else
        not_ok "$3" "no line matches /$1/ in $2" "$(show_file "$(basename "$2")" "$2")"
    fi
}

assert_no_grep() { # assert_no_grep ERE FILE NAME: no line of FILE matches ERE
    if ! grep -Eq -- "$1" "$2"; then
        ok "$3"
    else
        not_ok "$3" "a line matches /$1/ in $2" "$(show_file "$(basename "$2")" "$2")"
    fi
}

assert_file_is() { # assert_file_is FILE NAME: FILE's bytes equal stdin's
    local exp
    exp=$(mktemp "$T/.expect.XXXXXX")
    cat >"$exp"
    if cmp -s "$exp" "$1"; then
        ok "$2"
    else
        not_ok "$2" "$(show_file expected "$exp")" "$(show_file actual "$1")"
    fi
    rm -f "$exp"
}

assert_exists() { # assert_exists PATH NAME
    if [ -e "$1" ] || [ -L "$1" ]; then ok "$2"; else not_ok "$2" "missing: $1"; fi
}

assert_absent() { # assert_absent PATH NAME
    if [ -e "$1" ] || [ -L "$1" ]; then not_ok "$2" "exists: $1"; else ok "$2"; fi
}

# ---------------------------------------------------------------- running sandboxes

OUT=$T/.run.out
ERR=$T/.run.err
RC=0

# _run CMD...: runs CMD bounded by the sandbox timeout; stdout to $OUT, stderr to
# $ERR, status in $RC
_run() {
    RC=0
    timeout -k 5 "$SANDBOX_TIMEOUT" "$@" </dev/null >"$OUT" 2>"$ERR" || RC=$?
    if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
        echo "(killed by the test's ${SANDBOX_TIMEOUT}s bound, status $RC)" >>"$ERR"
    fi
    return 0
}

# nookc_argv ARRAY PROFILE [-- CMD...]: reads `nookc PROFILE --emit argv` (NUL-separated)
# into the bash array named ARRAY; returns nookc's status (its stderr goes to $ERR)
nookc_argv() {
    local -n _arr=$1
    local profile=$2
    shift 2
    _arr=()
    local st=0
    "$NOOKC" "$profile" --emit argv "$@" >"$T/.argv" 2>"$ERR" || st=$?
    [ $st -eq 0 ] || return $st
    mapfile -d '' -t _arr <"$T/.argv"
}

# sandbox MODE PROFILE CMD...: compiles PROFILE and runs CMD in the sandbox.
#   MODE sh:   `nookc PROFILE -o script`, then `sh script CMD...`
#   MODE argv: `nookc PROFILE --emit argv -- CMD...` read into an array, then `bwrap ARRAY`
# stdout in $OUT, stderr in $ERR, status in $RC (250 when nookc itself failed).
sandbox() {
    local mode=$1 profile=$2
    shift 2
    case $mode in
    sh)
        rm -f "$T/.script.sh"
        if ! "$NOOKC" "$profile" -o "$T/.script.sh" 2>"$ERR"; then
            RC=250
            : >"$OUT"
            return 0
        fi
        _run sh "$T/.script.sh" "$@"
        ;;
    argv)
        local args=()
        if ! nookc_argv args "$profile" -- "$@"; then
            RC=250
            : >"$OUT"
            return 0
        fi
        _run "$BWRAP" "${args[@]}"
        ;;
    *)
        echo "sandbox: unknown mode '$mode'" >&2
        exit 2
        ;;
    esac
}

# run_both CHECK PROFILE CMD...: runs the sandbox through the sh script and through the
# argv emitter; after each run calls `CHECK MODE` (MODE is sh or argv), which inspects
# $OUT, $ERR and $RC.
run_both() {
    local fn=$1 profile=$2 mode
    shift 2
    for mode in sh argv; do
        sandbox "$mode" "$profile" "$@"
        "$fn" "$mode"
    done
}

# bwrap_plain ARGS...: plain bubblewrap (the negative controls), same capture as sandbox
bwrap_plain() { _run "$BWRAP" "$@"; }

# elapsed_ms START_NS: milliseconds since START_NS (from `date +%s%N`)
elapsed_ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

# finish: the test file's exit status (non-zero when any test failed)
finish() { exit $_failed; }

# Preconditions every test needs.
if [ -z "$BWRAP" ]; then
    not_ok "$TEST_NAME: bwrap found in PATH" "install bubblewrap"
    exit 1
fi
case $T in
/tmp/?*) ;;
*)
    not_ok "$TEST_NAME: NOOK_TMP is a directory under /tmp" "NOOK_TMP=$T"
    exit 1
    ;;
esac
if [ ! -d "$T" ] || [ ! -w "$T" ]; then
    not_ok "$TEST_NAME: NOOK_TMP is a writable directory" "NOOK_TMP=$T"
    exit 1
fi
