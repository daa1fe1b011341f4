#!/bin/bash
# nook-exec's exit status, each produced for real: the payload's own (0, 1, 42), 128+N
# for a payload killed by signal N (143, 137), 124 on timeout, 125 when the sandbox
# cannot be set up (missing bind source, bwrap's chdir fails, NOOK_BWRAP missing), 126
# for a command that is not executable, 127 for a command that does not exist. A
# payload exiting 1 is 1, never 125. The contrast between the cases is the control: the
# same script is 126 with mode 0644 and runs with mode 0755. A command that exists but
# cannot be executed for another reason -- a missing #! interpreter, or (as root, whose
# capabilities the sandbox drops) another user's mode-0700 file -- is 126 (or 127 as
# bash says for the interpreter), not 125: the sandbox itself was set up.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

bin=$T/bin
mkdir "$bin"
printf '#!/bin/sh\nexit 5\n' >"$bin/script"
chmod 0644 "$bin/script"
mkdir "$T/vanishing"
mkplan pid <<EOF
  - type: ro-bind
    source: "$bin"
    target: /tmp/bin
unshare:
  pid: true
  user: true
  network: true
EOF
mkplan nopid <<'EOF'
unshare:
  user: true
  network: true
EOF
mkplan timeout <<'EOF'
unshare:
  pid: true
  user: true
  network: true
timeout: 1
EOF
mkplan vanishing <<EOF
  - type: bind
    source: "$T/vanishing"
    target: /tmp/vanishing
unshare:
  pid: true
  user: true
  network: true
EOF
rmdir "$T/vanishing"
mkplan chdir <<'EOF'
unshare:
  pid: true
  user: true
  network: true
chdir: /no/such/directory
EOF

# status EXPECTED NAME PLAN CMD...: runs nook-exec PLAN -- CMD and checks the status
status() {
    local want=$1 name=$2 plan=$3
    shift 3
    nx "$T/$plan.json" -- "$@"
    assert_status "$want" "$name: exit $want ($plan)"
}

for p in pid nopid; do
    status 0 "true" $p true
    status 1 "false (a payload's 1 is not a setup failure)" $p false
    status 1 "sh -c 'exit 1'" $p sh -c 'exit 1'
    assert_no_grep 'nook-exec' "$ERR" "sh -c 'exit 1': nook-exec says nothing on stderr ($p)"
    status 42 "sh -c 'exit 42'" $p sh -c 'exit 42'
    status 143 "a payload killed by SIGTERM" $p sh -c 'kill -TERM $$'
    status 137 "a payload killed by SIGKILL" $p sh -c 'kill -KILL $$'
    status 127 "a command that does not exist" $p no-such-command-$$
    assert_grep 'no-such-command' "$ERR" "a command that does not exist: bwrap's message on stderr ($p)"
    status 127 "an absolute path that does not exist" $p /usr/bin/no-such-command-$$
    status 126 "a directory as the command" $p /etc
done

# 126 for a bound host file with mode 0644; control: 0755 runs it
status 126 "a bound host file with mode 0644 as the command" pid /tmp/bin/script
assert_grep 'Permission denied' "$ERR" "mode 0644: bwrap's 'Permission denied' on stderr"
chmod 0755 "$bin/script"
status 5 "control: the same file with mode 0755 runs and exits 5" pid /tmp/bin/script

# An executable script whose interpreter does not exist: the sandbox was set up and the
# command cannot be executed (execve: ENOENT). 126 by the README's table, 127 as bash and
# env(1) say; 125 ("the sandbox could not be set up") is wrong either way.
printf '#!/no/such/interpreter\nexit 5\n' >"$bin/badinterp"
chmod 0755 "$bin/badinterp"
nx "$T/pid.json" -- /tmp/bin/badinterp
if [ "$RC" -eq 126 ] || [ "$RC" -eq 127 ]; then
    ok "a script whose #! interpreter is missing: exit 126 or 127, not 125"
else
    not_ok "a script whose #! interpreter is missing: exit 126 or 127, not 125" "$(show_run)"
fi

# A file only its owner -- another user -- may execute (mode 0700). The sandbox has no
# capabilities, so even root cannot execute it there: 126. Only root can make such a file.
if [ "$(id -u)" -eq 0 ]; then
    printf '#!/bin/sh\nexit 5\n' >"$bin/owner-only"
    chown nobody "$bin/owner-only"
    chmod 0700 "$bin/owner-only"
    status 126 "as root, another user's mode-0700 file as the command" pid /tmp/bin/owner-only
    assert_grep 'Permission denied' "$ERR" "another user's mode-0700 file: bwrap's 'Permission denied' on stderr"
    chmod 0755 "$bin/owner-only"
    status 5 "control: the same file with mode 0755 runs and exits 5" pid /tmp/bin/owner-only
else
    skip "as root, another user's mode-0700 file as the command: exit 126" \
        "only root can make a file owned by another user"
fi

# 124
m=$(mark 1)
track_marker "sleep 30 $m"
timed_nx --grace 1 "$T/timeout.json" -- sleep 30 "$m"
assert_status 124 "timeout: 1 with sleep 30: exit 124"
if [ "$MS" -lt 10000 ]; then ok "timeout: 1: nook-exec returns within 10 s (${MS} ms)"; else
    not_ok "timeout: 1: nook-exec returns within 10 s" "elapsed: ${MS} ms"
fi

# 125
status 125 "a bind source that does not exist" vanishing true
assert_grep "^nook-exec: error: bind source '$T/vanishing' does not exist \(ops\[[0-9]+\], from $T/vanishing.yaml:[0-9]+:[0-9]+\)\$" \
    "$ERR" "a missing bind source: the message names the path and the profile position"
status 125 "bwrap cannot chdir (a setup failure)" chdir true
assert_grep "chdir.*/no/such/directory" "$ERR" "bwrap cannot chdir: bwrap's message on stderr"
status 0 "control: the same command without the chdir" pid true
NOOK_BWRAP=$T/no-such-bwrap status 125 "NOOK_BWRAP names a missing file" pid true
assert_grep "^nook-exec: error: .*'$T/no-such-bwrap'.*No such file or directory" "$ERR" \
    "NOOK_BWRAP missing: the message names it"

finish
