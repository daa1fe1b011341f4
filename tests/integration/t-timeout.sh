#!/bin/bash
# `timeout: 1` in the emitted script: status 124 soon after a second, and nothing the
# payload started survives (I12). Controls: without the timeout the sandbox is still
# running after 2 s; without a pid namespace a grandchild survives the timeout (so the
# survivor scan does find survivors).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

hostdir=$T/data
mkdir "$hostdir"

# profile FILE PID(true/false) [TIMEOUT]
profile() {
    {
        cat <<EOF
name: timeout-test
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
  - type: bind
    source: "$hostdir"
    target: /tmp/data
unshare:
  pid: $2
  user: true
  network: true
EOF
        [ $# -lt 3 ] || echo "timeout: $3"
    } >"$1"
}
profile "$T/timeout.yaml" true 1
profile "$T/forever.yaml" true
profile "$T/nopid.yaml" false 1

compile() { # compile PROFILE SCRIPT: the sh script, or a failing test
    if "$NOOKC" "$1" -o "$2" 2>"$ERR"; then return 0; fi
    not_ok "nookc compiles $(basename "$1")" "$(show_file stderr "$ERR")"
    return 1
}

# unique markers: sleep sums its arguments, so `sleep 30 0.000NNN` is a 30 s sleep
# whose argv no other process has
mark() { echo "0.000$$$RANDOM$1"; }

# wait_gone MARKER: waits up to 3 s for the processes running `sleep 30 MARKER` to end;
# prints the survivors' pids
wait_gone() {
    local _ left
    for _ in $(seq 30); do
        left=$(marker_pids "sleep 30 $1")
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    echo "$left"
}

# timed_run SCRIPT ARGS...: runs the script; $RC and $MS (elapsed milliseconds)
timed_run() {
    local t0
    t0=$(date +%s%N)
    _run sh "$@"
    MS=$(elapsed_ms "$t0")
}

if compile "$T/timeout.yaml" "$T/timeout.sh"; then
    # ---- a plain sleep
    m1=$(mark 1)
    track_marker "sleep 30 $m1"
    timed_run "$T/timeout.sh" sleep 30 "$m1"
    assert_status 124 "timeout: 1 ends the sandbox with status 124"
    if [ "$MS" -ge 900 ] && [ "$MS" -lt 10000 ]; then
        ok "the sandbox ends after the 1 s timeout, within 10 s (${MS} ms)"
    else
        not_ok "the sandbox ends after the 1 s timeout, within 10 s" "elapsed: ${MS} ms"
    fi
    left=$(wait_gone "$m1")
    assert_empty_str "$left" "no 'sleep 30 $m1' survives"

    # ---- a process tree: two background children and a grandchild
    m2=$(mark 2)
    m3=$(mark 3)
    m4=$(mark 4)
    for m in "$m2" "$m3" "$m4"; do track_marker "sleep 30 $m"; done
    timed_run "$T/timeout.sh" sh -c \
        'sleep 30 "$1" & sleep 30 "$2" & sh -c "sleep 30 \"\$1\" &" sh "$3"; wait' sh "$m2" "$m3" "$m4"
    assert_status 124 "a payload with children: status 124"
    left=
    for m in "$m2" "$m3" "$m4"; do left="$left$(wait_gone "$m")"; done
    assert_empty_str "$left" "no child or grandchild of the payload survives"

    # ---- the payload gets SIGTERM and a grace period before the kill (DESIGN: timeout)
    rm -f "$hostdir/got-term"
    m5=$(mark 5)
    track_marker "sleep 30 $m5"
    timed_run "$T/timeout.sh" sh -c \
        'trap "echo term >/tmp/data/got-term; exit 3" TERM; sleep 30 "$1" & wait' sh "$m5"
    assert_status 124 "a payload trapping SIGTERM: status 124"
    assert_exists "$hostdir/got-term" "the payload receives SIGTERM (its trap runs) before being killed"
fi

# ---- control: the probe sees a payload that has not been asked to stop
if compile "$T/forever.yaml" "$T/forever.sh"; then
    m6=$(mark 6)
    track_marker "sleep 30 $m6"
    timeout -k 5 "$SANDBOX_TIMEOUT" sh "$T/forever.sh" sleep 30 "$m6" </dev/null >/dev/null 2>&1 &
    bg=$!
    track_pid "$bg"
    sleep 2
    left=$(marker_pids "sleep 30 $m6")
    assert_nonempty_str "$left" "control: without timeout the sandbox still runs after 2 s"
    if kill -0 "$bg" 2>/dev/null; then
        ok "control: without timeout the script has not returned after 2 s"
    else
        not_ok "control: without timeout the script has not returned after 2 s"
    fi
    kill -TERM "$bg" 2>/dev/null
    kill_marker "sleep 30 $m6"
    wait "$bg" 2>/dev/null
fi

# ---- control: without a pid namespace, a setsid'd child outlives the timeout (timeout(1)
# kills the command's process group; only a PID namespace reaches a new session)
if compile "$T/nopid.yaml" "$T/nopid.sh"; then
    m7=$(mark 7)
    track_marker "sleep 30 $m7"
    timed_run "$T/nopid.sh" sh -c 'setsid sleep 30 "$1" & wait' sh "$m7"
    assert_status 124 "control: without a pid namespace the script still exits 124"
    sleep 0.5
    left=$(marker_pids "sleep 30 $m7")
    assert_nonempty_str "$left" \
        "control: without a pid namespace a child survives the timeout (the scan finds it)"
    kill_marker "sleep 30 $m7"
fi

finish
