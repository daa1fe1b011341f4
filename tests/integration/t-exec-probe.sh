#!/bin/bash
# An option the plan needs and the installed bwrap lacks is reported before anything
# starts: NOOK_BWRAP names a fake bwrap whose --help is the real one without the --size
# line and which otherwise leaves a mark; a plan with a sized tmpfs gives exit 125
# naming --size, and no mark. Control: the same fake with --size in its help gets past
# the check and is run (the mark appears). Each fake is its own file: the probe cache
# (private here, XDG_CACHE_HOME) is keyed by the binary's identity.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

"$BWRAP" --help >"$T/help.full" 2>/dev/null
grep -v -- '^ *--size ' "$T/help.full" >"$T/help.nosize"
if grep -q -- '^ *--size ' "$T/help.full" && ! grep -q -- '--size' "$T/help.nosize"; then
    ok "the real bwrap --help lists --size; the fake's help does not"
else
    not_ok "the real bwrap --help lists --size; the fake's help does not" \
        "$(show_file help "$T/help.full")"
fi

# fake NAME HELP: an executable $T/NAME/bwrap printing HELP for --help, else leaving
# its arguments in $T/NAME.mark
fake() {
    mkdir "$T/$1"
    # shellcheck disable=SC2016 # the fake's own "$1" and "$*"
    printf '#!/bin/sh\nif [ "$1" = --help ]; then cat "%s"; exit 0; fi\necho "$*" >>"%s"\nexit 0\n' \
        "$2" "$T/$1.mark" >"$T/$1/bwrap"
    chmod 0755 "$T/$1/bwrap"
}
fake nosize "$T/help.nosize"
fake withsize "$T/help.full"

mkplan sized <<'EOF'
  - type: tmpfs
    target: /tmp/small
    size: 1M
unshare:
  pid: true
  user: true
  network: true
EOF
assert_grep '"size": 1048576' "$T/sized.json" "the plan has a sized tmpfs"

NOOK_BWRAP=$T/nosize/bwrap nx "$T/sized.json" -- true
assert_status 125 "a bwrap without --size: exit 125"
assert_grep "^nook-exec: error: '$T/nosize/bwrap' lacks --size, " "$ERR" \
    "a bwrap without --size: the error names the bwrap and --size"
assert_absent "$T/nosize.mark" "a bwrap without --size: nothing is started"
assert_eq "" "$(cat "$OUT")" "a bwrap without --size: nothing on stdout"

# ---- control
NOOK_BWRAP=$T/withsize/bwrap nx "$T/sized.json" -- true
assert_no_grep 'lacks' "$ERR" "control: a bwrap with --size passes the check"
assert_exists "$T/withsize.mark" "control: a bwrap with --size is started"
assert_grep "^--args 3 -- true$" "$T/withsize.mark" "control: it is started with --args 3 -- true"
# (the fake reports no exit status, so this run's own status is not the point)

# ---- the cache follows the binary: the fake rewritten in place (as an upgrade would
# rewrite bwrap) is probed again; now it lacks --size
rm -f "$T/withsize.mark"
sed -i "s|$T/help.full|$T/help.nosize|" "$T/withsize/bwrap"
NOOK_BWRAP=$T/withsize/bwrap nx "$T/sized.json" -- true
assert_status 125 "the fake rewritten without --size: exit 125 (the cached answer is not reused)"
assert_grep "lacks --size" "$ERR" "the fake rewritten without --size: the error names --size"
assert_absent "$T/withsize.mark" "the fake rewritten without --size: nothing is started"

# ---- a bwrap nook-exec must not run: refused before it is probed or started
# refused_bwrap NAME PATH ERE: NOOK_BWRAP=PATH gives 125, ERE on stderr, no fake runs
refused_bwrap() {
    local name=$1 path=$2 ere=$3
    rm -f "$T"/*.mark
    NOOK_BWRAP=$path nx "$T/sized.json" -- true
    assert_status 125 "$name: exit 125"
    assert_grep "^nook-exec: error: .*$ere" "$ERR" "$name: the error says why"
    assert_empty_str "$(cd "$T" && ls -- *.mark 2>/dev/null)" "$name: nothing is run"
}
fake groupw "$T/help.full"
chmod 0775 "$T/groupw/bwrap"
refused_bwrap "a group-writable bwrap" "$T/groupw/bwrap" "writable by group or others"
fake setuid "$T/help.full"
chmod 4755 "$T/setuid/bwrap"
refused_bwrap "a setuid bwrap" "$T/setuid/bwrap" "setuid"
refused_bwrap "a directory as bwrap" "$T/groupw" "not a regular file"
chmod 0755 "$T/groupw/bwrap"
refused_bwrap "a relative NOOK_BWRAP" "groupw/bwrap" "must be an absolute path"
if [ "$(id -u)" -eq 0 ]; then
    fake other "$T/help.full"
    chown nobody "$T/other/bwrap"
    refused_bwrap "a bwrap owned by another user" "$T/other/bwrap" "owned by another user"
else
    skip "a bwrap owned by another user: exit 125" "only root can make a file owned by another user"
fi

finish
