#!/bin/bash
# nook-exec's command line: usage errors exit 2 with "nook-exec: error:" and nothing on
# stdout; --help, -h and --version exit 0; --dry-run prints a bwrap command line that
# runs as is when evaluated by a shell, and starts nothing; --print-plan prints the plan
# nookc wrote; words after -- are the command, never options.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

mkplan plan <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
plan=$T/plan.json
mkplan baked -- echo baked-in <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF

# usage_error NAME ERE ARGS...: exit 2, "nook-exec: error:" and ERE on stderr, no stdout
usage_error() {
    local name=$1 ere=$2
    shift 2
    nx "$@"
    assert_status 2 "$name: exit 2"
    assert_grep "^nook-exec: error: .*$ere" "$ERR" "$name: 'nook-exec: error: ...$ere' on stderr"
    assert_eq "" "$(cat "$OUT")" "$name: nothing on stdout"
}
usage_error "no arguments" "no plan given"
usage_error "a plan without a command and no --" "no command" "$plan"
usage_error "a plan without a command and nothing after --" "no command" "$plan" --
usage_error "an unknown option" "unknown option '--bogus'" --bogus "$plan" -- true
usage_error "a second word without --" "unexpected argument 'true'" "$plan" true
usage_error "--grace abc" "invalid --grace 'abc'" --grace abc "$plan" -- true
usage_error "--grace without a value" "needs a value" --grace
usage_error "an empty command" "must not be empty" "$plan" -- ''

# ---- help and version
for h in --help -h; do
    nx $h
    assert_status 0 "$h: exit 0"
    assert_grep '^Usage: nook-exec ' "$OUT" "$h: the usage on stdout"
done
nx --version
assert_status 0 "--version: exit 0"
assert_grep '^nook-exec [0-9]+\.[0-9]+\.[0-9]+$' "$OUT" "--version prints 'nook-exec X.Y.Z'"

# ---- the command: from the plan, replaced by --, never parsed as options
nx "$T/baked.json"
assert_status 0 "the plan's own command runs"
assert_eq baked-in "$(cat "$OUT")" "the plan's own command prints its output"
nx "$T/baked.json" -- echo replaced
assert_eq replaced "$(cat "$OUT")" "the command after -- replaces the plan's"
nx "$plan" -- --help
assert_status 127 "--help after -- is the command (not found: 127)"
assert_no_grep '^Usage' "$OUT" "--help after -- does not print the usage"

# ---- --dry-run
rm -f "$NOOK_LOG"
nx --dry-run "$plan" -- echo hi 'it'\''s'
assert_status 0 "--dry-run: exit 0"
line=$(cat "$OUT")
assert_eq 1 "$(wc -l <"$OUT")" "--dry-run: one line on stdout"
assert_grep "^'$BWRAP' .*'--unshare-net' .*'--' 'echo' 'hi' 'it'\\\\''s'\$" "$OUT" \
    "--dry-run: the real bwrap, the plan's options, then -- and the quoted command"
assert_absent "$NOOK_LOG" "--dry-run: starts nothing (no log line)"
for sh in bash sh; do
    RC=0
    # shellcheck disable=SC2016 # $1 belongs to the inner shell
    timeout -k 5 "$SANDBOX_TIMEOUT" "$sh" -c 'eval "$1"' "$sh" "$line" </dev/null >"$OUT" 2>"$ERR" ||
        RC=$?
    assert_status 0 "--dry-run: the line evaluated by $sh exits 0"
    printf "hi it's\n" | assert_file_is "$OUT" "--dry-run: the line evaluated by $sh prints hi it's"
done

# ---- --print-plan
nx --print-plan "$plan"
assert_status 0 "--print-plan: exit 0"
assert_file_is "$OUT" "--print-plan: the same bytes nookc wrote" <"$plan"

finish
