#!/bin/bash
# nook-exec's timeout ends a payload that fights back: it ignores SIGTERM and leaves a
# TERM-ignoring grandchild in a new session (setsid, double fork). With `timeout: 1` and
# `--grace 1`: exit 124 after the grace period, well under 10 s, and no process of the
# tree survives (the SIGKILL to the PID namespace's init). Control: without a PID
# namespace the setsid'd grandchild survives the same timeout, so the scan does find
# survivors.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

for pid in true false; do
    mkplan "pid-$pid" <<EOF
unshare:
  pid: $pid
  user: true
  network: true
timeout: 1
EOF
done

# $1: the grandchild's marker, $2: the payload's own sleep's marker
# shellcheck disable=SC2016 # expanded by the payload
payload='trap "" TERM
(setsid sh -c "trap \"\" TERM; exec sleep 30 \"\$1\"" grandchild "$1" &)
sleep 30 "$2"'

# run_tree PLAN LABEL: runs the payload under nook-exec --grace 1; sets MA, MB (markers),
# RC and MS
run_tree() {
    local plan=$1 label=$2 t0
    MA=$(mark 1)
    MB=$(mark 2)
    track_marker "sleep 30 $MA"
    track_marker "sleep 30 $MB"
    t0=$(date +%s%N)
    if ! bg_start "$T/nx.pid" "$NOOK_EXEC" --grace 1 "$T/$plan.json" -- sh -c "$payload" payload \
        "$MA" "$MB"; then
        not_ok "$label: nook-exec starts"
    fi
    if wait_marker "sleep 30 $MA" 15 && wait_marker "sleep 30 $MB" 10; then
        ok "$label: the setsid'd grandchild and the payload's sleep are running (scan finds both)"
    else
        not_ok "$label: the setsid'd grandchild and the payload's sleep are running (scan finds both)" \
            "grandchild: $(marker_pids "sleep 30 $MA")" "payload's sleep: $(marker_pids "sleep 30 $MB")"
    fi
    bg_wait
    MS=$(elapsed_ms "$t0")
}

run_tree pid-true "pid namespace"
assert_status 124 "pid namespace: a TERM-ignoring, setsid'd tree times out with exit 124"
if [ "$MS" -ge 1500 ] && [ "$MS" -lt 10000 ]; then
    ok "pid namespace: it ends after timeout + grace, well under 10 s (${MS} ms)"
else
    not_ok "pid namespace: it ends after timeout + grace, well under 10 s" "elapsed: ${MS} ms"
fi
assert_grep 'timed out' "$ERR" "pid namespace: nook-exec says it timed out on stderr"
left="$(wait_gone "sleep 30 $MA")$(wait_gone "sleep 30 $MB" 1)"
assert_empty_str "$left" "pid namespace: no process of the tree survives (neither marker in /proc)"

# ---- control: without a PID namespace the setsid'd grandchild survives
run_tree pid-false "control: no pid namespace"
assert_status 124 "control: no pid namespace: exit 124 all the same"
sleep 0.3
assert_nonempty_str "$(marker_pids "sleep 30 $MA")" \
    "control: no pid namespace: the setsid'd grandchild survives the timeout"
kill_marker "sleep 30 $MA"
kill_marker "sleep 30 $MB"

finish
