#!/bin/bash
# agent-nook logs: `-n N` prints exactly the last N lines of the log (the same bytes as
# tail -n N; control: the log is longer than that), without -n the whole of a short
# log; no log file: exit 0 and nothing on stdout. `logs -f -n 2` (in the background,
# stdout to a file) waits for a log that does not exist yet and prints it from its
# start, then the lines appended, follows the path across rotation (mv log log.1, a new
# log: its lines are printed, and the old file's appends no more) and truncation, prints
# nothing twice, has no child process (no tail), and exits 130 on SIGINT; with an
# existing log it first prints its last 2 lines, and exits 143 on SIGTERM.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# ---- no log file
an logs
assert_status 0 "logs without a log file: exit 0"
assert_empty_str "$(cat "$OUT")" "logs without a log file: nothing on stdout"
assert_absent "$AN_LOG" "logs without a log file: does not create one"

# ---- the last lines of a real log
an run true
an run --command 'exit 3'
lines=$(wc -l <"$AN_LOG")
if [ "$lines" -ge 4 ]; then ok "control: two runs wrote $lines lines to the log"; else
    not_ok "control: two runs wrote at least 4 lines to the log" "$(show_file log "$AN_LOG")"
fi
an logs -n 1
assert_status 0 "logs -n 1: exit 0"
tail -n 1 "$AN_LOG" | assert_file_is "$OUT" "logs -n 1 prints exactly the last line of the log"
an logs
assert_file_is "$OUT" "logs (default 50 lines) prints the whole $lines-line log" <"$AN_LOG"
printf 'l1\nl2\nl3\nl4\nl5\n' >"$AN_LOG"
an logs -n 3
printf 'l3\nl4\nl5\n' | assert_file_is "$OUT" "logs -n 3 on a 5-line log prints exactly its last 3 lines"
an logs -n 0
assert_empty_str "$(cat "$OUT")" "logs -n 0 prints nothing"

# ---- follow
# wait_line LINE: waits up to 5 s for LINE in the follower's output ($OUT)
wait_line() {
    local _
    for _ in $(seq 50); do
        grep -qxF -- "$1" "$OUT" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
# children PID: the pids of PID's children (bash builtins only: no fork per process)
children() {
    local p k v
    for p in /proc/[0-9]*; do
        while read -r k v; do
            if [ "$k" = PPid: ]; then
                [ "$v" = "$1" ] && echo "${p#/proc/}"
                break
            fi
        done <"$p/status" 2>/dev/null
    done
    return 0
}
# tails DIR: the pids of tail processes with DIR in their arguments (other tails on the
# machine are none of ours)
tails() {
    local p c a
    for p in /proc/[0-9]*; do
        c=
        read -r c <"$p/comm" 2>/dev/null
        [ "$c" = tail ] || continue
        { while IFS= read -r -d '' a; do
            case $a in *"$1"*) echo "${p#/proc/}" && break ;; esac
        done <"$p/cmdline"; } 2>/dev/null
    done
    return 0
}
# follow_step NAME LINE: waits for LINE, then expects the whole output to be stdin
follow_step() {
    local want
    want=$(cat)
    if wait_line "$1"; then :; else
        not_ok "$2" "'$1' never came" "$(show_file out "$OUT")"
        return
    fi
    printf '%s\n' "$want" | assert_file_is "$OUT" "$2"
}

F=$T/fstate
FLOG=$F/agent-nook/agent-nook.log
XDG_STATE_HOME=$F bg_start "$T/follow.pid" "$AGENT_NOOK" logs -f -n 2 ||
    not_ok "logs -f -n 2 started" "$(show_run)"
sleep 0.3
if alive "$BG_PID"; then ok "logs -f -n 2 without a log file: keeps running, waiting"; else
    not_ok "logs -f -n 2 without a log file: keeps running, waiting" "$(show_file stderr "$ERR")"
fi
assert_empty_str "$(cat "$OUT")" "logs -f -n 2 without a log file: nothing printed yet"
mkdir -p "$F/agent-nook"
printf 'w1\nw2\nw3\n' >"$FLOG"
follow_step w3 "the log appears: printed from its start" <<'EOF'
w1
w2
w3
EOF
printf 'a1\na2\n' >>"$FLOG"
follow_step a2 "lines appended are printed" <<'EOF'
w1
w2
w3
a1
a2
EOF
printf 'late\n' >>"$FLOG"
mv "$FLOG" "$FLOG.1"
printf 'r1\nr2\n' >"$FLOG"
follow_step r2 "rotation (mv log log.1, a new log): the old file's last line, then the new file's" <<'EOF'
w1
w2
w3
a1
a2
late
r1
r2
EOF
printf 'stale\n' >>"$FLOG.1"
printf 'r3\n' >>"$FLOG"
sleep 0.3
follow_step r3 "after rotation: the new file is followed, appends to log.1 are not printed" <<'EOF'
w1
w2
w3
a1
a2
late
r1
r2
r3
EOF
: >"$FLOG"
sleep 0.5
printf 't1\n' >>"$FLOG"
follow_step t1 "truncation (to 0 bytes, then a line appended): the new line is printed" <<'EOF'
w1
w2
w3
a1
a2
late
r1
r2
r3
t1
EOF
kids=$(children "$BG_PID")
assert_empty_str "$kids" "logs -f has no child process"
assert_eq "$BG_PID" "$(children "$BG")" "control: the child scan finds the follower as timeout's child"
assert_empty_str "$(tails "$F")" "logs -f: no tail process on the log exists"
tail -f "$FLOG" >/dev/null 2>&1 &
tail_pid=$!
track_pid $tail_pid
sleep 0.1
assert_eq "$tail_pid" "$(tails "$F")" "control: the tail scan finds a tail -f on the log"
kill $tail_pid
wait $tail_pid 2>/dev/null
kill -INT "$BG_PID"
bg_wait
assert_status 130 "logs -f: SIGINT: exit 130"
assert_empty_str "$(tails "$F")" "logs -f: SIGINT: no tail process on the log is left"
if alive "$BG_PID"; then not_ok "logs -f: SIGINT: the follower is gone"; else ok "logs -f: SIGINT: the follower is gone"; fi

# ---- follow an existing log; SIGTERM
printf 'e1\ne2\ne3\ne4\ne5\n' >"$FLOG"
XDG_STATE_HOME=$F bg_start "$T/follow2.pid" "$AGENT_NOOK" logs --follow -n 2 ||
    not_ok "logs --follow -n 2 started" "$(show_run)"
if wait_line e5; then
    sleep 0.3
    printf 'e4\ne5\n' | assert_file_is "$OUT" "logs --follow -n 2 on a 5-line log: first its last 2 lines"
else
    not_ok "logs --follow -n 2 on a 5-line log: first its last 2 lines" "$(show_file out "$OUT")"
fi
printf 'e6\n' >>"$FLOG"
if wait_line e6; then ok "logs --follow: an appended line follows"; else
    not_ok "logs --follow: an appended line follows" "$(show_file out "$OUT")"
fi
kill -TERM "$BG_PID"
bg_wait
assert_status 143 "logs --follow: SIGTERM: exit 143"

finish
