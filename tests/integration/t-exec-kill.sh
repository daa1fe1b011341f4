#!/bin/bash
# nook-exec killed with SIGKILL (it cannot forward anything) takes the sandbox with it:
# die_with_parent and the PID namespace end the payload within 2 s. Control: the same
# with `die_with_parent: false` leaves the payload running.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

for dwp in true false; do
    mkplan "dwp-$dwp" <<EOF
unshare:
  pid: true
  user: true
  network: true
die_with_parent: $dwp
EOF
done

# kill_run DWP LABEL: starts `nook-exec PLAN -- sleep 30 MARK`, waits for the marker and
# SIGKILLs nook-exec; sets M
kill_run() {
    local dwp=$1 label=$2
    M=$(mark "$3")
    track_marker "sleep 30 $M"
    bg_start "$T/nx.pid" "$NOOK_EXEC" "$T/dwp-$dwp.json" -- sleep 30 "$M" ||
        not_ok "$label: nook-exec starts"
    if wait_marker "sleep 30 $M"; then
        ok "$label: the payload (a marked sleep) is running (the scan finds it)"
    else
        not_ok "$label: the payload (a marked sleep) is running (the scan finds it)" "$(show_run)"
    fi
    if [ -n "$BG_PID" ] && alive "$BG_PID"; then
        kill -KILL "$BG_PID"
    fi
    bg_wait
}

kill_run true "die_with_parent" 1
assert_status 137 "die_with_parent: nook-exec died of SIGKILL"
left=$(wait_gone "sleep 30 $M" 20)
assert_empty_str "$left" "die_with_parent: the payload is gone within 2 s of nook-exec's SIGKILL"

# ---- control
kill_run false "control: die_with_parent false" 2
assert_status 137 "control: die_with_parent false: nook-exec died of SIGKILL"
sleep 1
assert_nonempty_str "$(marker_pids "sleep 30 $M")" \
    "control: die_with_parent false: the payload still runs 1 s after nook-exec's SIGKILL"
kill_marker "sleep 30 $M"

finish
