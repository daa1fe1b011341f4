#!/bin/bash
# nookc's command line: options, exit codes (0 ok, 1 rejected, 2 usage or I/O), messages,
# -o (atomic, modes, nothing written on failure), --check, determinism.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

P=$NOOK_PROFILES/default.yaml
uid=$(id -u)
cd "$T" || exit 1

# nk ARGS...: runs nookc (bounded); stdout in $OUT, stderr in $ERR, status in $RC
nk() { _run "$NOOKC" "$@"; }

assert_empty() { # assert_empty FILE NAME
    if [ ! -s "$1" ]; then ok "$2"; else not_ok "$2" "$(show_file "$(basename "$1")" "$1")"; fi
}

# usage_error NAME ARGS...: exit 2, "nookc: error:" on stderr, nothing on stdout
usage_error() {
    local name=$1
    shift
    nk "$@"
    assert_status 2 "$name: exit 2"
    assert_grep '^nookc: error: ' "$ERR" "$name: 'nookc: error:' on stderr"
    assert_empty "$OUT" "$name: nothing on stdout"
}

# ---- help and version
nk --help
assert_status 0 "--help exits 0"
assert_grep '^Usage: nookc ' "$OUT" "--help prints the usage on stdout"
assert_empty "$ERR" "--help prints nothing on stderr"
nk -h
assert_status 0 "-h exits 0"
assert_grep '^Usage: nookc ' "$OUT" "-h prints the usage on stdout"
nk --version
assert_status 0 "--version exits 0"
assert_grep '^nookc [0-9]+\.[0-9]+\.[0-9]+$' "$OUT" "--version prints 'nookc X.Y.Z'"
assert_empty "$ERR" "--version prints nothing on stderr"

# ---- usage errors: exit 2
usage_error "unknown option" --bogus "$P"
assert_grep "unknown option '--bogus'" "$ERR" "unknown option: names the option"
usage_error "no profile" --emit sh
assert_grep 'no profile given' "$ERR" "no profile: says so"
usage_error "no arguments at all"
usage_error "--emit bogus" --emit bogus "$P"
assert_grep "unknown output format 'bogus'" "$ERR" "--emit bogus: names the format"
usage_error "--emit without a value" "$P" --emit
usage_error "two profiles" "$P" "$P"
usage_error "--bwrap with a relative path" --bwrap bwrap "$P"
usage_error "--target-bwrap with a bad version" --target-bwrap 0.8.x "$P"
usage_error "the profile only after --" -- "$P"

# ---- profiles that cannot be read: exit 1
mkdir "$T/adir"
nk "$T/adir"
assert_status 1 "a directory as profile: exit 1"
printf "nookc: error: cannot read '%s': is a directory\nnookc: 1 error\n" "$T/adir" |
    assert_file_is "$ERR" "a directory as profile: the exact message"
assert_empty "$OUT" "a directory as profile: nothing on stdout"

mkfifo "$T/fifo.yaml"
t0=$(date +%s%N)
RC=0
timeout 5 "$NOOKC" "$T/fifo.yaml" </dev/null >"$OUT" 2>"$ERR" || RC=$?
ms=$(elapsed_ms "$t0")
assert_status 1 "a FIFO as profile: exit 1 without waiting for a writer (${ms} ms)"
assert_grep "cannot read '$T/fifo.yaml': not a regular file" "$ERR" "a FIFO as profile: 'not a regular file'"

cp "$P" "$T/unreadable.yaml"
chmod 000 "$T/unreadable.yaml"
if [ "$uid" -ne 0 ]; then
    nk "$T/unreadable.yaml"
    assert_status 1 "an unreadable profile (mode 000): exit 1"
    assert_grep "cannot open '$T/unreadable.yaml': Permission denied" "$ERR" \
        "an unreadable profile: 'Permission denied'"
else
    skip "an unreadable profile (mode 000): exit 1" "root reads mode 000 files; checked as nobody"
fi

nk "$T/missing.yaml"
assert_status 1 "a missing profile: exit 1"
printf "nookc: error: cannot open '%s': No such file or directory\nnookc: 1 error\n" "$T/missing.yaml" |
    assert_file_is "$ERR" "a missing profile: the exact message"

# ---- -o: atomic, modes, nothing half-done
expect_mode() { # expect_mode FILE MODE NAME
    assert_eq "$2" "$(stat -c %a "$1" 2>&1)" "$3"
}
no_temp_left() { # no_temp_left NAME: no .nook-tmp-* left in $T/out
    local left
    left=$(find "$T/out" -name '.nook-tmp-*')
    if [ -z "$left" ]; then ok "$1"; else not_ok "$1" "$left"; fi
}
mkdir "$T/out"
nk "$P" >/dev/null
cp "$OUT" "$T/stdout.sh"
nk "$P" -o "$T/out/script.sh"
assert_status 0 "-o script: exit 0"
assert_empty "$OUT" "-o script: nothing on stdout"
expect_mode "$T/out/script.sh" 755 "-o script: mode 0755"
if cmp -s "$T/stdout.sh" "$T/out/script.sh"; then ok "-o script: same bytes as stdout"; else
    not_ok "-o script: same bytes as stdout"
fi
(umask 077 && "$NOOKC" "$P" -o "$T/out/umask.sh" 2>"$ERR")
expect_mode "$T/out/umask.sh" 755 "-o script under umask 077: still mode 0755"
nk "$P" --emit json -o "$T/out/plan.json"
assert_status 0 "-o json: exit 0"
expect_mode "$T/out/plan.json" 644 "-o json: mode 0644"
nk "$P" --emit argv -o "$T/out/args"
assert_status 0 "-o argv: exit 0"
expect_mode "$T/out/args" 644 "-o argv: mode 0644"
no_temp_left "-o leaves no temporary file"

printf 'name: rejected\nmounts: []\n' >"$T/bad.yaml"
nk "$T/bad.yaml" -o "$T/out/absent.sh"
assert_status 1 "rejected profile with -o: exit 1"
assert_absent "$T/out/absent.sh" "rejected profile with -o: the file is not created"
assert_empty "$OUT" "rejected profile with -o: nothing on stdout"
printf 'precious\n' >"$T/out/existing.sh"
chmod 0600 "$T/out/existing.sh"
touch -d '2001-02-03 04:05:06' "$T/out/existing.sh"
before=$(stat -c '%a %s %Y %i' "$T/out/existing.sh")
nk "$T/bad.yaml" -o "$T/out/existing.sh"
assert_status 1 "rejected profile over an existing file: exit 1"
printf 'precious\n' | assert_file_is "$T/out/existing.sh" "rejected profile: the existing file's content is unchanged"
assert_eq "$before" "$(stat -c '%a %s %Y %i' "$T/out/existing.sh")" \
    "rejected profile: the existing file's mode, size, mtime and inode are unchanged"
no_temp_left "a rejected profile leaves no temporary file"

nk "$P" -o "$T/no-such-dir/script.sh"
assert_status 2 "-o into a missing directory: exit 2"
assert_grep "^nookc: error: cannot write '$T/no-such-dir/script.sh'" "$ERR" "-o into a missing directory: says so"
nk "$P" -o "$T/out"
assert_status 2 "-o naming a directory: exit 2"

# -o onto something that is not a regular file: it must not be replaced by a regular file
mkfifo "$T/out/pipe"
RC=0
timeout 5 "$NOOKC" "$P" -o "$T/out/pipe" </dev/null >"$OUT" 2>"$ERR" || RC=$?
if [ -p "$T/out/pipe" ]; then
    ok "-o onto a FIFO does not replace the FIFO (status $RC)"
else
    not_ok "-o onto a FIFO does not replace the FIFO (status $RC)" \
        "it is now: $(stat -c '%F, mode %a' "$T/out/pipe")" \
        "(as root, -o /dev/stdout (a symlink) or -o /dev/null (a device node) get replaced the same way)"
fi

# ---- output errors: exit 2
RC=0
"$NOOKC" "$P" >/dev/full 2>"$ERR" || RC=$?
assert_status 2 "writing to /dev/full: exit 2"
assert_grep '^nookc: error: cannot write output: No space left on device$' "$ERR" "writing to /dev/full: the error"
RC=0
"$NOOKC" "$P" --emit json >/dev/full 2>"$ERR" || RC=$?
assert_status 2 "writing json to /dev/full: exit 2"

# ---- --check
nk "$P" --check
assert_status 0 "--check on a valid profile: exit 0"
assert_empty "$OUT" "--check on a valid profile: nothing on stdout"
assert_empty "$ERR" "--check on a valid profile: nothing on stderr"
nk "$T/bad.yaml" --check
assert_status 1 "--check on a rejected profile: exit 1"
assert_empty "$OUT" "--check on a rejected profile: nothing on stdout"
assert_grep "^$T/bad.yaml:2:[0-9]+: error: " "$ERR" "--check on a rejected profile: a positioned diagnostic"
nk "$P" --check -o "$T/out/check.sh"
assert_absent "$T/out/check.sh" "--check with -o writes no file"

# ---- determinism: two runs, byte-identical
for emit in sh argv json; do
    "$NOOKC" "$P" --emit $emit -- echo hi >"$T/d1" 2>/dev/null
    "$NOOKC" "$P" --emit $emit -- echo hi >"$T/d2" 2>/dev/null
    if [ -s "$T/d1" ] && cmp -s "$T/d1" "$T/d2"; then
        ok "--emit $emit is deterministic"
    else
        not_ok "--emit $emit is deterministic"
    fi
done

# ---- everything after -- is the command, never an option
nk "$P" -- -o "$T/out/not-an-option" --help
assert_status 0 "options after -- are not parsed: exit 0"
assert_absent "$T/out/not-an-option" "-o after -- writes no file"
assert_grep "^    '--' '-o' '$T/out/not-an-option' '--help' \"\\\$@\"\$" "$OUT" \
    "-o and --help after -- end up in the script's command"

finish
