#!/bin/bash
# $XDG_CONFIG_HOME/agent-nook/logging.yaml: `level: WARNING` makes a successful run write
# nothing to the log (an error still goes there); `file: PATH` (also with ${VAR} and ~)
# moves the log there, and `agent-nook logs` reads it; `console_level: INFO` puts the
# start and end lines on stderr, never on stdout; `max_bytes`/`backup_count` rotate. A bad
# value (`level: LOUD`, `max_bytes: "x"`, an unknown key) is exit 125 with a
# FILE:LINE:COL error naming the key, and nothing runs. Control: without logging.yaml a
# successful run writes its two lines to the default log and nothing to stderr.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

stamp='[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}'
# logconf: logging.yaml from stdin, and a fresh state dir (no log yet)
logconf() {
    mkdir -p "$AN_CONF_DIR"
    cat >"$AN_LOGCONF"
    rm -rf "$XDG_STATE_HOME"
}

# ---- control: no logging.yaml
an run echo hi
assert_eq 2 "$(wc -l <"$AN_LOG" 2>&1)" "control: no logging.yaml: a successful run writes 2 lines to the log"
assert_grep "^$stamp - agent_nook\[agent-sandbox\] - INFO - Starting sandbox from " "$AN_LOG" \
    "control: no logging.yaml: the INFO start line is in the log"
assert_no_stderr "control: no logging.yaml: nothing on stderr"

# ---- level: WARNING
logconf <<<'level: WARNING'
an run echo hi
echo hi | expect_run 0 "level: WARNING: a successful run: exit 0, the payload's output"
if [ ! -s "$AN_LOG" ]; then ok "level: WARNING: a successful run writes nothing to the log"; else
    not_ok "level: WARNING: a successful run writes nothing to the log" "$(show_file log "$AN_LOG")"
fi
an run no-such-command-$$
assert_status 127 "level: WARNING: a missing command: exit 127"
assert_grep " - ERROR - Sandbox exited with status 127" "$AN_LOG" "level: WARNING: an ERROR line still reaches the log"
assert_no_grep " - INFO - " "$AN_LOG" "level: WARNING: no INFO line in the log"

# ---- file:
logconf <<'EOF'
file: ${NOOK_TMP}/elsewhere/custom.log
EOF
an run echo hi
assert_eq 2 "$(wc -l <"$T/elsewhere/custom.log" 2>&1)" "file: the run's two lines go to $T/elsewhere/custom.log"
assert_absent "$AN_LOG" "file: nothing goes to the default log"
an logs
assert_file_is "$OUT" "file: agent-nook logs reads the configured file" <"$T/elsewhere/custom.log"
export HOME=$T/home
mkdir -p "$HOME"
logconf <<'EOF'
file: ~/tilde.log
EOF
an run true
assert_eq 2 "$(wc -l <"$HOME/tilde.log" 2>&1)" "file: ~/tilde.log: the log goes to \$HOME/tilde.log"

# ---- console_level: INFO
logconf <<<'console_level: INFO'
an run printf 'a\nb'
printf 'a\nb' | expect_run 0 "console_level: INFO: exit 0, stdout is still exactly the payload's"
assert_grep "^$stamp - agent_nook\[agent-sandbox\] - INFO - Starting sandbox from " "$ERR" \
    "console_level: INFO: the start line is on stderr"
assert_grep "^$stamp - agent_nook\[agent-sandbox\] - INFO - Sandbox exited with status 0 " "$ERR" \
    "console_level: INFO: the end line is on stderr"
assert_eq 2 "$(wc -l <"$AN_LOG" 2>&1)" "console_level: INFO: the log file still gets both lines"

# ---- max_bytes, backup_count
logconf <<'EOF'
max_bytes: 100
backup_count: 1
EOF
an run true
an run true
an run true
assert_exists "$AN_LOG.1" "max_bytes: 100: the log was rotated to agent-nook.log.1"
assert_absent "$AN_LOG.2" "backup_count: 1: no agent-nook.log.2 is kept"
rm -rf "$AN_LOGCONF" "$XDG_STATE_HOME"
an run true
an run true
assert_absent "$AN_LOG.1" "control: without max_bytes, two runs do not rotate"

# ---- bad values
# bad NAME ERE: logging.yaml from stdin; in one test, `run` exits 125 with the
# FILE:LINE:COL ERE on stderr, runs nothing (no output, no log); then `logs` is refused
# the same way
bad() {
    local name=$1 ere=$2
    logconf
    an run --command 'echo ran'
    if [ "$RC" -eq 125 ] && grep -Eq -- "^$AN_LOGCONF:$ere" "$ERR" && [ ! -s "$OUT" ] &&
        [ ! -e "$AN_LOG" ]; then
        ok "$name: run exits 125 with 'FILE:$ere', nothing runs"
    else
        not_ok "$name: run exits 125 with 'FILE:$ere', nothing runs" "$(show_run)" \
            "log: $(ls -l "$AN_LOG" 2>&1)"
    fi
    an logs
    if [ "$RC" -eq 125 ] && grep -Eq -- "^$AN_LOGCONF:$ere" "$ERR"; then
        ok "$name: logs exits 125 with the same error"
    else
        not_ok "$name: logs exits 125 with the same error" "$(show_run)"
    fi
}
bad "level: LOUD" "1:8: error: invalid level 'LOUD'" <<<'level: LOUD'
bad 'max_bytes: "x" (line 2)' "2:12: error: .*'max_bytes'" <<'EOF'
level: INFO
max_bytes: "x"
EOF
bad "an unknown key" "2:1: error: unknown key 'colour'" <<'EOF'
level: INFO
colour: blue
EOF
bad "a misspelt key" "1:1: error: unknown key 'levle'; did you mean 'level'\\?" <<<'levle: INFO'
rm -f "$AN_LOGCONF"
an run --command 'echo ran'
assert_out ran "control: logging.yaml removed, the same run works"

finish
