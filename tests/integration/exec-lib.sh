# tests/integration/exec-lib.sh - helpers for the nook-exec tests (t-exec-*.sh, bash).
# shellcheck shell=bash disable=SC2034 # its variables are for the test files
#
# Sourced after lib.sh. tests/integration/run.sh provides NOOK_EXEC, the absolute path
# of the nook-exec binary under test. The log and the bwrap probe cache go to the test's
# temp dir (XDG_STATE_HOME, XDG_CACHE_HOME), and NOOK_BWRAP is unset, so a run never
# touches the user's files and always finds the real bwrap unless a test says otherwise.

if [ -z "${NOOK_EXEC:-}" ] || [ ! -x "$NOOK_EXEC" ]; then
    not_ok "$TEST_NAME: NOOK_EXEC names the nook-exec binary" "NOOK_EXEC=${NOOK_EXEC:-}" \
        "(run tests/integration/run.sh)"
    exit 1
fi
export XDG_STATE_HOME=$T/state XDG_CACHE_HOME=$T/cache
unset NOOK_BWRAP
NOOK_LOG=$XDG_STATE_HOME/agent-nook/agent-nook.log

# mkplan NAME [NOOKC-ARGS...]: writes the profile $T/NAME.yaml -- name exec-test, the host
# read-only at /, proc, dev, a tmpfs on /tmp, then stdin (more mount items, then top-level
# keys) -- and compiles it to the plan $T/NAME.json. Returns nookc's status; a failure is
# also a failing test.
mkplan() {
    local name=$1 st=0
    shift
    {
        cat <<'EOF'
name: exec-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: proc
    target: /proc
  - type: dev
    target: /dev
  - type: tmpfs
    target: /tmp
EOF
        cat
    } >"$T/$name.yaml"
    compile_plan "$T/$name.yaml" "$T/$name.json" "$@" || st=$?
    return $st
}

# compile_plan PROFILE PLAN [NOOKC-ARGS...]: nookc PROFILE --emit json -o PLAN; a failure
# is a failing test
compile_plan() {
    local profile=$1 plan=$2 st=0
    shift 2
    "$NOOKC" "$profile" --emit json -o "$plan" "$@" 2>"$T/.nookc.err" || st=$?
    [ $st -eq 0 ] ||
        not_ok "nookc compiles $(basename "$profile")" "status $st" "$(show_file stderr "$T/.nookc.err")"
    return $st
}

# nx ARGS...: runs nook-exec ARGS bounded by the sandbox timeout, stdin /dev/null; stdout
# in $OUT, stderr in $ERR, status in $RC
nx() { _run "$NOOK_EXEC" "$@"; }

# timed_nx ARGS...: like nx, and the elapsed milliseconds in $MS
timed_nx() {
    local t0
    t0=$(date +%s%N)
    nx "$@"
    MS=$(elapsed_ms "$t0")
}

# bg_start PIDFILE CMD...: starts CMD in the background, bounded by the sandbox timeout,
# stdin /dev/null, stdout and stderr to $OUT and $ERR. CMD is exec'd by a shell that
# first writes its own pid to PIDFILE, so PIDFILE names CMD itself (not timeout(1)).
# Sets BG (timeout's pid, tracked for cleanup) and BG_PID (CMD's pid); returns 1 when
# CMD did not start within 5 s.
bg_start() {
    local pidfile=$1 _
    shift
    rm -f "$pidfile"
    # shellcheck disable=SC2016 # $$ and $@ belong to the inner shell
    timeout -k 5 "$SANDBOX_TIMEOUT" sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' \
        "$pidfile" "$@" </dev/null >"$OUT" 2>"$ERR" &
    BG=$!
    track_pid "$BG"
    BG_PID=
    for _ in $(seq 50); do
        if [ -s "$pidfile" ]; then
            BG_PID=$(cat "$pidfile")
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# bg_wait: waits for the background command started by bg_start; its status in $RC
bg_wait() {
    RC=0
    wait "$BG" 2>/dev/null || RC=$? # (no "Killed" notice from bash)
}

# alive PID: whether PID exists and is not a zombie
alive() {
    local st
    st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
    [ -n "$st" ] && [ "$st" != Z ]
}

# unique markers: sleep sums its arguments, so `sleep 30 MARK` is a 30 s sleep whose argv
# no other process has (see marker_pids in lib.sh)
mark() { echo "0.000$$$RANDOM$1"; } # mark DIGITS

# wait_for FILE [TENTHS]: waits up to TENTHS/10 s (default 5 s) for FILE to exist
wait_for() {
    local _
    for _ in $(seq "${2:-50}"); do
        [ -e "$1" ] && return 0
        sleep 0.1
    done
    return 1
}

# wait_marker ARGV [TENTHS]: waits up to TENTHS/10 s (default 5 s) for a process with
# exactly ARGV (marker_pids) to exist
wait_marker() {
    local _
    for _ in $(seq "${2:-50}"); do
        [ -n "$(marker_pids "$1")" ] && return 0
        sleep 0.1
    done
    return 1
}

# wait_gone ARGV [TENTHS]: waits up to TENTHS/10 s (default 3 s) for every process with
# exactly ARGV to end; prints the survivors' pids
wait_gone() {
    local _ left
    for _ in $(seq "${2:-30}"); do
        left=$(marker_pids "$1")
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    echo "$left"
}

# A probe run inside the sandbox: the pids of the processes whose argv is exactly $1
# (lib.sh's marker_pids, so both sides of a comparison scan /proc the same way).
# shellcheck disable=SC2016 # expanded by the inner bash
SCAN_PROBE="$(declare -f marker_pids)"'
marker_pids "$1"'
