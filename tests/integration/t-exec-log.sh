#!/bin/bash
# nook-exec's log file and output streams: a start and an end line in
# $XDG_STATE_HOME/agent-nook/agent-nook.log, "YYYY-MM-DD HH:MM:SS - agent_nook[NAME] -
# INFO - ..."; --setenv values masked as '***' (control: -v on stderr shows the value, so
# the mask is what hides it); stdout is exactly the payload's; a log that cannot be
# written is a warning and the payload's status stands; rotation at 10 MiB (control: a
# 1 MiB log is not rotated).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

secret="hunter2-$$-$RANDOM"
mkplan log <<EOF
unshare:
  pid: true
  user: true
  network: true
env_vars:
  SECRET_TOKEN: "$secret"
EOF
plan=$T/log.json
stamp='[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}'

# ---- the lines
rm -rf "$XDG_STATE_HOME"
nx "$plan" -- printf 'out1\nout2'
assert_status 0 "a logged run: exit 0"
printf 'out1\nout2' | assert_file_is "$OUT" "stdout is exactly the payload's output"
assert_eq 2 "$(wc -l <"$NOOK_LOG" 2>&1)" "the log has two lines after one run"
assert_grep "^$stamp - agent_nook\[exec-test\] - INFO - Starting sandbox from $plan: '$BWRAP' .*'--' 'printf' " \
    "$NOOK_LOG" "the start line: timestamp, agent_nook[exec-test], INFO, the plan and the command"
assert_grep "^$stamp - agent_nook\[exec-test\] - INFO - Sandbox exited with status 0 after [0-9]+\.[0-9]{3} s\$" \
    "$NOOK_LOG" "the end line: timestamp, agent_nook[exec-test], INFO, status and duration"
assert_grep "'--setenv' 'SECRET_TOKEN' '\*\*\*'" "$NOOK_LOG" "the --setenv value is '***' in the log"
assert_no_grep "$secret" "$NOOK_LOG" "the --setenv value is nowhere in the log"
# shellcheck disable=SC2016 # expanded inside the sandbox
nx "$plan" -- sh -c 'echo "$SECRET_TOKEN"'
assert_eq "$secret" "$(cat "$OUT")" "control: the payload does get the value"
nx -v "$plan" -- printf 'out1\nout2'
assert_grep "'--setenv' 'SECRET_TOKEN' '$secret'" "$ERR" "control: -v shows the unmasked value on stderr"
printf 'out1\nout2' | assert_file_is "$OUT" "-v: stdout is still exactly the payload's output"
nx "$plan" -- sh -c 'exit 3'
assert_grep "^$stamp - agent_nook\[exec-test\] - [A-Z]+ - Sandbox exited with status 3 " "$NOOK_LOG" \
    "a payload exiting 3: the end line says status 3"
before=$(wc -l <"$NOOK_LOG")
nx "$plan" -- true $'line one\nline two\033[31m'
assert_eq $((before + 2)) "$(wc -l <"$NOOK_LOG")" \
    "a command word with a newline and an escape: still one line per event"
assert_grep "'--' 'true' 'line one\\\\nline two\\\\x1b\[31m'\$" "$NOOK_LOG" \
    "a command word with a newline and an escape: both written escaped"

# ---- a log that cannot be written
printf 'not a dir\n' >"$T/afile"
XDG_STATE_HOME=$T/afile nx "$plan" -- sh -c 'echo out; exit 3'
assert_status 3 "XDG_STATE_HOME is a file: the payload's status 3 stands"
assert_eq out "$(cat "$OUT")" "XDG_STATE_HOME is a file: stdout is the payload's"
assert_grep "^nook-exec: warning: cannot write the log '$T/afile/agent-nook/agent-nook.log'" "$ERR" \
    "XDG_STATE_HOME is a file: a warning on stderr names the log"
XDG_STATE_HOME=$T/afile nx -q "$plan" -- sh -c 'exit 3'
assert_status 3 "XDG_STATE_HOME is a file, -q: status 3"
assert_eq "" "$(cat "$ERR")" "XDG_STATE_HOME is a file, -q: no warning"
if [ "$(id -u)" -ne 0 ]; then
    mkdir -m 0555 "$T/rostate"
    XDG_STATE_HOME=$T/rostate nx "$plan" -- sh -c 'echo out; exit 4'
    assert_status 4 "a read-only state dir: the payload's status 4 stands"
    assert_grep "^nook-exec: warning: cannot write the log" "$ERR" "a read-only state dir: a warning on stderr"
    assert_eq out "$(cat "$OUT")" "a read-only state dir: stdout is the payload's"
else
    skip "a read-only state dir: a warning, the payload's status" "root writes anyway; checked as nobody"
fi

# ---- rotation
rm -rf "$XDG_STATE_HOME"
mkdir -p "$(dirname "$NOOK_LOG")"
truncate -s 10M "$NOOK_LOG"
printf 'old one\n' >"$NOOK_LOG.1"
nx "$plan" -- true
assert_status 0 "a 10 MiB log: the run exits 0"
assert_eq 10485760 "$(stat -c %s "$NOOK_LOG.1" 2>&1)" "a 10 MiB log: rotated to agent-nook.log.1"
assert_eq "old one" "$(cat "$NOOK_LOG.2" 2>&1)" "a 10 MiB log: the old .1 became .2"
assert_eq 2 "$(wc -l <"$NOOK_LOG" 2>&1)" "a 10 MiB log: the new log has this run's two lines"
rm -rf "$XDG_STATE_HOME"
mkdir -p "$(dirname "$NOOK_LOG")"
truncate -s 1M "$NOOK_LOG"
nx "$plan" -- true
assert_absent "$NOOK_LOG.1" "control: a 1 MiB log is not rotated"
if [ "$(stat -c %s "$NOOK_LOG")" -gt 1048576 ]; then ok "control: a 1 MiB log grows"; else
    not_ok "control: a 1 MiB log grows"
fi

finish
