#!/bin/bash
# agent-nook status on this working machine: exit 0, the report on stdout names the bwrap
# in use and its version, user namespaces available, a minimal sandbox that starts, the
# config file (not found before the first run, and not written by status; compiling
# after it) and the log, and ends "A sandbox can start here.". Controls: NOOK_BWRAP naming
# a missing file, or a "bwrap" that fails, is exit 1 ending "A sandbox cannot start
# here."; a broken profile is reported as not compiling. The profile is reported as
# compiling however agent-nook is started: `run` sets ${PWD} itself, so status must too
# (run without PWD in the environment).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

last_line() { tail -n 1 "$OUT"; }
bwrap_version=$("$BWRAP" --version 2>&1)

# ---- a working machine, before the first run
an status
assert_status 0 "status: exit 0"
assert_eq "A sandbox can start here." "$(last_line)" "status: the report ends 'A sandbox can start here.'"
assert_grep "^ +bwrap: +$BWRAP \($bwrap_version\)\$" "$OUT" "status: names the bwrap path and version ($BWRAP, $bwrap_version)"
assert_grep "^ +user namespaces: +available " "$OUT" "status: user namespaces are available"
assert_grep "^ +sandbox: +starts\$" "$OUT" "status: a minimal sandbox starts"
assert_grep "^ +profile: +$AN_CONF \(not found" "$OUT" "status before the first run: the config is not found"
assert_grep "^ +log: +$AN_LOG \(not written yet\)\$" "$OUT" "status before the first run: the log is not written yet"
assert_no_stderr "status: nothing on stderr"
assert_absent "$AN_CONF" "status does not write the config"

# ---- after a run
an run true
an status
assert_status 0 "status after a run: exit 0"
assert_grep "^ +profile: +$AN_CONF \(compiles\)\$" "$OUT" "status after a run: the written config compiles"
assert_grep "^ +log: +$AN_LOG \([0-9]+ KiB\)\$" "$OUT" "status after a run: the log and its size"
_run env -u PWD "$AGENT_NOOK" status
assert_status 0 "status without PWD in the environment: exit 0"
assert_grep "^ +profile: +$AN_CONF \(compiles\)\$" "$OUT" \
    "status without PWD in the environment: the config run uses is reported as compiling"
_run env -u PWD "$AGENT_NOOK" run --command 'echo ran'
assert_out ran "control: run without PWD in the environment compiles and runs the same config"

# ---- controls: a sandbox cannot start
NOOK_BWRAP=$T/no-such-bwrap an status
assert_status 1 "NOOK_BWRAP names a missing file: exit 1"
assert_eq "A sandbox cannot start here." "$(last_line)" "NOOK_BWRAP missing: the report ends 'A sandbox cannot start here.'"
assert_grep "^ +bwrap: +NOT USABLE: .*'$T/no-such-bwrap'" "$OUT" "NOOK_BWRAP missing: the report names it"
mkdir "$T/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/bwrap"
chmod 0755 "$T/bin/bwrap"
NOOK_BWRAP=$T/bin/bwrap an status
assert_status 1 "NOOK_BWRAP names a bwrap that always fails: exit 1"
assert_eq "A sandbox cannot start here." "$(last_line)" "a failing bwrap: the report ends 'A sandbox cannot start here.'"

# ---- control: a broken profile is reported
printf 'name: broken\nmounts: [\n' >"$AN_CONF"
an status
assert_grep "^ +profile: +$AN_CONF \(DOES NOT COMPILE" "$OUT" "control: a broken config is reported as not compiling"

finish
