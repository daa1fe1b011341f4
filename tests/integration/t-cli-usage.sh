#!/bin/bash
# agent-nook's command line and streams: stdout carries exactly the payload's output
# (`run printf 'a\nb'` is "a\nb", no log line; with -v, before or after `run`, the bwrap
# command and the status go to stderr). Usage errors exit 2 with "agent-nook: error:" on
# stderr, nothing on stdout and nothing run: the global `--config x run`, `--bind a:b:c`,
# `--env NOVALUE`, `run` without a command, `--command x y`, and more; controls: the
# same options written correctly run. Without a command the help is printed (exit 0);
# --version; `help run` and `run --help` print run's usage.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# ---- stdout is the payload's
an run printf 'a\nb'
printf 'a\nb' | expect_run 0 "run printf 'a\\nb': exit 0, stdout is exactly a, newline, b"
assert_no_stderr "run printf 'a\\nb': nothing on stderr"
assert_eq 2 "$(wc -l <"$AN_LOG" 2>&1)" "control: the run's log lines went to the log file"
for v in "run -v" "-v run" "run --verbose"; do
    # shellcheck disable=SC2086 # the words of $v
    an $v printf 'a\nb'
    printf 'a\nb' | expect_run 0 "$v printf 'a\\nb': exit 0, stdout is still exactly the payload's"
    assert_grep "^agent-nook: running '$BWRAP' .*'--' 'printf' 'a\\\\nb'\$" "$ERR" \
        "$v: the bwrap command is on stderr"
    assert_grep "^agent-nook: status 0 after [0-9.]+ s\$" "$ERR" "$v: the status and run time are on stderr"
done

# ---- usage errors
# usage_error NAME ERE ARGS...: one test: exit 2, "agent-nook: error: ...ERE" on stderr,
# nothing on stdout (every command here would print "ran")
usage_error() {
    local name=$1 ere=$2
    shift 2
    an "$@"
    if [ "$RC" -eq 2 ] && grep -Eq -- "^agent-nook: error: .*$ere" "$ERR" && [ ! -s "$OUT" ]; then
        ok "$name: exit 2, 'agent-nook: error: ...$ere', nothing on stdout"
    else
        not_ok "$name: exit 2, 'agent-nook: error: ...$ere', nothing on stdout" "$(show_run)"
    fi
}
rm -f "$AN_LOG"
usage_error "--config before run" "--config is an option of 'run'" --config "$T/x.yaml" run echo ran
usage_error "run --bind a:b:c" "too many ':'" run --bind a:b:c echo ran
usage_error "run --env NOVALUE" "--env 'NOVALUE': expected KEY=VALUE" run --env NOVALUE echo ran
usage_error "run without a command" "no command given" run
usage_error "run with only options" "no command given" run --hostname x
usage_error "run --command x y" "either --command STRING or a command" run --command 'echo ran' echo ran
usage_error "an unknown run option" "unknown run option '--bogus'" run --bogus echo ran
usage_error "--unshare with no namespace name" "--unshare needs namespace names" run --unshare echo ran
usage_error "--cap-add NOT_A_CAP" "--cap-add 'NOT_A_CAP'" run --cap-add NOT_A_CAP echo ran
usage_error "--tmpfs with a bad size" "invalid size 'lots'" run --tmpfs /x:lots echo ran
usage_error "--hostname with a slash" "--hostname 'a/b'" run --hostname a/b echo ran
usage_error "an option without its value" "needs a value" run --chdir
usage_error "an unknown command" "unknown command 'frobnicate'" frobnicate
usage_error "logs -n abc" "expected a number of lines" logs -n abc
assert_absent "$AN_LOG" "usage errors start no sandbox (no log)"

# ---- controls: the same options, written correctly, run
mkdir "$T/data"
mkprofile x <<'EOF'
unshare:
  pid: true
  user: true
EOF
an run --config "$T/x.yaml" echo ran
assert_out ran "control: run --config PATH (after run) runs"
# shellcheck disable=SC2016 # expanded inside the sandbox
an run --bind "$T/data":/srv/z --env KEY=VALUE --hostname x --tmpfs /x:1M sh -c 'echo "$KEY"; uname -n'
printf 'VALUE\nx\n' | assert_file_is "$OUT" "control: --bind SRC:DEST --env KEY=VALUE --hostname x --tmpfs /x:1M run"
an run --command 'echo ran'
assert_out ran "control: --command alone runs"

# ---- help and version
an
assert_status 0 "no command: exit 0"
assert_grep "^Usage: agent-nook \[--version\] \[-h\] \[-v\] \[-q\] COMMAND" "$OUT" "no command: the help on stdout"
assert_no_stderr "no command: nothing on stderr"
cp "$OUT" "$T/help"
for h in -h --help help; do
    an $h
    expect_run 0 "$h: exit 0, the same help on stdout" <"$T/help"
done
an --version
echo "agent-nook $("$NOOKC" --version | sed 's/^nookc //')" |
    expect_run 0 "--version: exit 0, prints 'agent-nook X.Y.Z' (nookc's version)"
an help run
assert_status 0 "help run: exit 0"
assert_grep "^Usage: agent-nook run \[OPTIONS\]" "$OUT" "help run: run's usage on stdout"
cp "$OUT" "$T/help-run"
an run --help
expect_run 0 "run --help: exit 0, the same as help run" <"$T/help-run"
usage_error "help for an unknown command" "no help for 'bogus'" help bogus

finish
