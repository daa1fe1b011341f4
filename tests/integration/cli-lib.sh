# tests/integration/cli-lib.sh - helpers for the agent-nook tests (t-cli-*.sh, bash).
# shellcheck shell=bash disable=SC2034 # its variables are for the test files
#
# Sourced after lib.sh and exec-lib.sh (whose XDG_STATE_HOME, XDG_CACHE_HOME, bg_start,
# mark, wait_for ... it reuses). tests/integration/run.sh provides AGENT_NOOK, the
# absolute path of the agent-nook binary under test. The profile, logging.yaml, the log
# and the bwrap probe cache all live in the test's temp dir: XDG_CONFIG_HOME is
# $T/config and does not exist yet, so the first `run` writes the default profile there.
# The cwd is lib.sh's empty project directory $T/project.

if [ -z "${AGENT_NOOK:-}" ] || [ ! -x "$AGENT_NOOK" ]; then
    not_ok "$TEST_NAME: AGENT_NOOK names the agent-nook binary" "AGENT_NOOK=${AGENT_NOOK:-}" \
        "(run tests/integration/run.sh)"
    exit 1
fi
export XDG_CONFIG_HOME=$T/config
unset AGENT_NOOK_PROFILE_DIR NOOK_BWRAP
AN_CONF_DIR=$XDG_CONFIG_HOME/agent-nook
AN_CONF=$AN_CONF_DIR/sandbox.yaml
AN_LOGCONF=$AN_CONF_DIR/logging.yaml
AN_LOG=$NOOK_LOG
PROJECT=$T/project

# an ARGS...: runs agent-nook ARGS bounded by the sandbox timeout, stdin /dev/null;
# stdout in $OUT, stderr in $ERR, status in $RC
an() { _run "$AGENT_NOOK" "$@"; }

# mkprofile NAME: writes the profile $T/NAME.yaml -- name cli-test, the host read-only
# at /, proc, dev, then stdin (more mount items, then top-level keys) -- for
# `agent-nook run --config $T/NAME.yaml`
mkprofile() {
    {
        cat <<'EOF'
name: cli-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: proc
    target: /proc
  - type: dev
    target: /dev
EOF
        cat
    } >"$T/$1.yaml"
}

# assert_out EXPECTED NAME: the last run's stdout is exactly EXPECTED plus a newline
assert_out() { printf '%s\n' "$1" | assert_file_is "$OUT" "$2"; }

# expect_run STATUS NAME: one test: the last run exited STATUS and its stdout is exactly
# stdin's bytes
expect_run() {
    local exp
    exp=$(mktemp "$T/.expect.XXXXXX")
    cat >"$exp"
    if [ "$RC" -eq "$1" ] && cmp -s "$exp" "$OUT"; then
        ok "$2"
    else
        not_ok "$2" "expected status $1 and stdout:" "$(show_file expected "$exp")" "$(show_run)"
    fi
    rm -f "$exp"
}

# assert_no_stderr NAME: the last run wrote nothing on stderr
assert_no_stderr() {
    if [ ! -s "$ERR" ]; then ok "$1"; else not_ok "$1" "$(show_file stderr "$ERR")"; fi
}

# host_ns NS: the host's namespace NS as /proc/self/ns shows it ("pid:[4026531836]")
host_ns() { readlink "/proc/self/ns/$1"; }

# NS_PROBE: prints "$$" then one line per namespace, NS:[INODE], for the names in "$@"
# shellcheck disable=SC2016 # expanded inside the sandbox
NS_PROBE='echo "$$"; for n in "$@"; do readlink "/proc/self/ns/$n"; done'

# IFACES: prints the network interfaces of /proc/net/dev, sorted, one a line
# shellcheck disable=SC2016 # a sed script
IFACES='sed -n "s/^ *\([^ :]*\):.*/\1/p" /proc/net/dev | sort'
