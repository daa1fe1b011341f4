#!/bin/bash
# The default profile's project bind: the current directory is bound read-write at the
# same path and is the working directory (pwd inside equals the host cwd; a file written
# inside appears on the host; a file next to the project under /tmp does not show,
# since /tmp is a tmpfs). agent-nook refuses, exit 125 with an explanation and nothing
# run, when the cwd is / or $HOME itself (also when $HOME names it through a symlink or
# with a trailing slash), or /tmp (a mount target of the profile). Controls: from a
# project subdirectory, from a directory under $HOME, and from / with a profile that does
# not bind the cwd, the same command runs.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# an_in DIR ARGS...: `an ARGS` with DIR as the cwd (then back to the project)
an_in() {
    local dir=$1
    shift
    cd "$dir" || exit 1
    an "$@"
    cd "$PROJECT" || exit 1
}

# ---- the project: the cwd, read-write, the working directory
echo "next to the project" >"$T/sibling"
# shellcheck disable=SC2016 # expanded inside the sandbox
probe='pwd -P; echo "$PWD"; echo "written inside" >from-inside
for p in "$@"; do [ -e "$p" ] && echo "visible $p" || echo "absent $p"; done
touch /usr/probe 2>&1; true'
an run sh -c "$probe" probe "$T/sibling"
assert_status 0 "from the project directory: exit 0"
assert_eq "$PROJECT $PROJECT" "$(sed -n 1p "$OUT") $(sed -n 2p "$OUT")" "pwd -P and \$PWD inside are the host cwd ($PROJECT)"
assert_eq "written inside" "$(cat "$PROJECT/from-inside" 2>&1)" "a file written in the cwd inside appears on the host"
assert_grep "^absent $T/sibling\$" "$OUT" "a host file next to the project (under the tmpfs /tmp) does not show"
assert_exists "$T/sibling" "control: that file exists on the host"
assert_grep "/usr/probe.*Read-only file system" "$OUT" "outside the project the host stays read-only"

# ---- refused: the cwd is /
rm -f "$AN_LOG"
an_in / run --command 'echo ran'
assert_status 125 "cwd /: exit 125"
assert_grep "^$AN_CONF:[0-9]+:[0-9]+: error: refusing to bind the current directory '/' read-write: it is the root directory" \
    "$ERR" "cwd /: the FILE:LINE:COL error explains the refusal"
assert_empty_str "$(cat "$OUT")" "cwd /: nothing ran (no output)"
assert_absent "$AN_LOG" "cwd /: no sandbox was started (no log line)"
mkprofile plain <<'EOF'
unshare:
  pid: true
  user: true
EOF
an_in / run --config "$T/plain.yaml" --command 'pwd; echo ran'
printf '/\nran\n' | expect_run 0 "control: cwd / with a profile that does not bind the cwd: exit 0, runs in /"

# ---- refused: the cwd is $HOME
home=$T/home
mkdir -p "$home/proj"
HOME=$home an_in "$home" run --command 'touch ran-marker; echo ran'
assert_status 125 "cwd \$HOME: exit 125"
assert_grep "^$AN_CONF:[0-9]+:[0-9]+: error: refusing to bind the current directory '$home' read-write: it is your home directory" \
    "$ERR" "cwd \$HOME: the FILE:LINE:COL error explains the refusal"
assert_empty_str "$(cat "$OUT")" "cwd \$HOME: nothing ran (no output)"
assert_absent "$home/ran-marker" "cwd \$HOME: nothing ran (no marker)"
HOME=$home/ an_in "$home" run --command 'touch ran-marker; echo ran'
assert_status 125 "cwd \$HOME, HOME with a trailing slash: exit 125"
assert_absent "$home/ran-marker" "cwd \$HOME, HOME with a trailing slash: nothing ran"
ln -s "$home" "$T/home-link"
HOME=$T/home-link an_in "$T/home-link" run --command 'touch ran-marker; echo ran'
assert_status 125 "cwd \$HOME, HOME a symlink to it (cd \$HOME): exit 125"
assert_absent "$home/ran-marker" "cwd \$HOME, HOME a symlink to it: nothing ran (no marker)"
rm -f "$home/ran-marker"

# ---- controls: under $HOME, and a project subdirectory, it runs
HOME=$home an_in "$home/proj" run --command 'touch ran-marker; pwd -P'
echo "$home/proj" | expect_run 0 "control: cwd \$HOME/proj: exit 0, pwd inside is \$HOME/proj"
assert_exists "$home/proj/ran-marker" "control: cwd \$HOME/proj: the marker was written"
mkdir "$PROJECT/sub"
an_in "$PROJECT/sub" run --command 'touch ran-marker; pwd -P'
echo "$PROJECT/sub" | expect_run 0 "control: cwd a project subdirectory: exit 0, pwd inside is that subdirectory"
assert_exists "$PROJECT/sub/ran-marker" "control: cwd a project subdirectory: the marker was written"

# ---- refused: the cwd is a mount target of the profile
an_in /tmp run --command 'echo ran'
assert_status 125 "cwd /tmp (a tmpfs of the profile): exit 125"
assert_grep "^$AN_CONF:[0-9]+:[0-9]+: error: the current directory '/tmp' is also a mount target" \
    "$ERR" "cwd /tmp: the error says it is a mount target of the profile"
assert_empty_str "$(cat "$OUT")" "cwd /tmp: nothing ran"

finish
