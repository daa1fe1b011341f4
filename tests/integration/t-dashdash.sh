#!/bin/bash
# A command that looks like a bwrap option (--version) is the payload, never parsed by bwrap.
# Control: plain bwrap does parse it and prints its version.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

P=$NOOK_PROFILES/default.yaml

# not_bwrap_version MODE: the payload "--version" was exec'd (and failed), not parsed
not_bwrap_version() {
    assert_no_grep '^bubblewrap' "$OUT" "--version is not parsed by bwrap (stdout) via $1"
    assert_no_grep '^bubblewrap' "$ERR" "--version is not parsed by bwrap (stderr) via $1"
    if [ "$RC" -ne 0 ]; then
        ok "running a command named --version fails (status $RC) via $1"
    else
        not_ok "running a command named --version fails via $1" "$(show_run)"
    fi
    assert_grep 'execvp --version' "$ERR" "bwrap tried to exec --version via $1"
}

# at run time: sh SCRIPT --version, and the argv emitter with -- --version
run_both not_bwrap_version "$P" --version

# baked in: nookc PROFILE -- --version
RC=0
"$NOOKC" "$P" -o "$T/baked.sh" -- --version 2>"$ERR" || RC=$?
assert_status 0 "nookc bakes -- --version into a script"
_run sh "$T/baked.sh"
not_bwrap_version "baked sh"
args=()
RC=0
nookc_argv args "$P" -- --version || RC=$?
assert_status 0 "nookc --emit argv -- --version"
assert_eq "-- --version" "${args[*]: -2}" "the argv ends with -- --version"
bwrap_plain "${args[@]}"
not_bwrap_version "baked argv"

# option look-alikes given at run time to a script with a baked command are its arguments
"$NOOKC" "$P" -o "$T/printf.sh" -- printf '%s\n' 2>"$ERR"
_run sh "$T/printf.sh" --version --help
printf -- '--version\n--help\n' | assert_file_is "$OUT" "extra arguments --version --help reach the baked command"

# ---- control: plain bwrap parses --version when it is not after --
bwrap_plain --ro-bind / / --version
assert_status 0 "control: plain bwrap --ro-bind / / --version exits 0"
assert_grep '^bubblewrap [0-9]' "$OUT" "control: plain bwrap prints its version line"

finish
