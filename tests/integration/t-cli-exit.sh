#!/bin/bash
# agent-nook run's exit status, as nook-exec's, each produced for real: the payload's
# own (0, 1, 42 -- a 1 is not a setup failure), 128+N when it is killed by signal N,
# 124 when --timeout expires (the payload is gone afterwards; control: the same command
# with a longer --timeout finishes with its own status), 127 for a command that does not
# exist, 126 for one that cannot be executed, 125 for a profile error (its
# FILE:LINE:COL line on stderr, nothing run) or a bind source that does not exist.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# ---- the payload's status
an run true
assert_status 0 "true: exit 0"
an run false
assert_status 1 "false: exit 1 (not a setup failure)"
assert_no_stderr "false: agent-nook says nothing on stderr"
an run --command 'exit 42'
assert_status 42 "--command 'exit 42': exit 42"
# shellcheck disable=SC2016 # expanded inside the sandbox
an run sh -c 'kill -TERM $$'
assert_status 143 "a payload killed by SIGTERM: exit 143"

# ---- --timeout
m=$(mark 1)
track_marker "sleep 30 $m"
t0=$(date +%s%N)
an run --timeout 1 sleep 30 "$m"
ms=$(elapsed_ms "$t0")
assert_status 124 "--timeout 1 with sleep 30: exit 124"
if [ "$ms" -lt 10000 ]; then ok "--timeout 1: agent-nook returns within 10 s (${ms} ms)"; else
    not_ok "--timeout 1: agent-nook returns within 10 s" "elapsed: ${ms} ms"
fi
left=$(wait_gone "sleep 30 $m")
assert_empty_str "$left" "--timeout 1: the payload's sleep is gone afterwards"
an run --timeout 10 sh -c 'sleep 0.2; exit 7'
assert_status 7 "control: --timeout 10 with a 0.2 s payload: its own status 7"

# ---- 127, 126
an run no-such-command-$$
assert_status 127 "a command that does not exist: exit 127"
assert_grep "no-such-command-$$" "$ERR" "a command that does not exist: stderr names it"
an run /etc
assert_status 126 "a directory as the command: exit 126"
printf '#!/bin/sh\nexit 5\n' >"$PROJECT/script"
chmod 0644 "$PROJECT/script"
an run "$PROJECT/script"
assert_status 126 "a mode-0644 script in the project as the command: exit 126"
chmod 0755 "$PROJECT/script"
an run "$PROJECT/script"
assert_status 5 "control: the same script with mode 0755 runs and exits 5"

# ---- 125
mkprofile bad <<'EOF'
  - type: tmpfs
    targte: /x
EOF
an run --config "$T/bad.yaml" --command 'echo ran'
assert_status 125 "a profile error: exit 125"
assert_grep "^$T/bad.yaml:11:5: error: unknown key 'targte'; did you mean 'target'\\?\$" "$ERR" \
    "a profile error: the FILE:LINE:COL error line on stderr"
assert_empty_str "$(cat "$OUT")" "a profile error: nothing ran"
sed -i 's/targte/target/' "$T/bad.yaml"
an run --config "$T/bad.yaml" --command 'echo ran'
echo ran | expect_run 0 "control: the profile with the key fixed: exit 0, the command runs"
an run --bind "$T/no-such-dir":/srv/q --command 'echo ran'
assert_status 125 "a --bind source that does not exist: exit 125"
assert_grep "$T/no-such-dir" "$ERR" "a --bind source that does not exist: stderr names it"
assert_empty_str "$(cat "$OUT")" "a --bind source that does not exist: nothing ran"

finish
