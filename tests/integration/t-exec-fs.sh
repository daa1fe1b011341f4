#!/bin/bash
# nook-exec, the filesystem: a host file outside the binds is invisible inside (the
# shipped default profile, whose /tmp is a tmpfs); a ro-bind rejects writes. Controls:
# the canary is there on the host and inside once its directory is bound; a rw bind
# accepts the same writes.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

# ---- a host file outside the binds
cdir=$(mktemp -d "$T/canary.XXXXXX")
secret="canary $$ $RANDOM"
printf '%s\n' "$secret" >"$cdir/canary"
# shellcheck disable=SC2016 # expanded inside the sandbox
look='if [ -e "$1" ]; then echo visible; cat "$1"; else echo absent; fi
if [ -e "$2" ]; then echo dir-visible; else echo dir-absent; fi'

if compile_plan "$NOOK_PROFILES/default.yaml" "$T/default.json"; then
    nx "$T/default.json" -- sh -c "$look" look "$cdir/canary" "$cdir"
    assert_status 0 "default profile: the probe exits 0"
    printf 'absent\ndir-absent\n' | assert_file_is "$OUT" \
        "default profile: a canary in a fresh host temp dir is invisible inside, and so is its dir"
fi

# control: the probe sees the canary where it is there
RC=0
sh -c "$look" look "$cdir/canary" "$cdir" >"$OUT" 2>"$ERR" || RC=$?
printf 'visible\n%s\ndir-visible\n' "$secret" | assert_file_is "$OUT" \
    "control: the same probe on the host sees the canary"

# control: the default profile plus a bind of the canary's dir
awk -v d="$cdir" '{ print } /^mounts:/ {
    print "  - type: ro-bind"; print "    source: \"" d "\""; print "    target: \"" d "\"" }' \
    "$NOOK_PROFILES/default.yaml" >"$T/default-bound.yaml"
if compile_plan "$T/default-bound.yaml" "$T/default-bound.json"; then
    nx "$T/default-bound.json" -- sh -c "$look" look "$cdir/canary" "$cdir"
    assert_status 0 "control: default profile with the dir bound: the probe exits 0"
    printf 'visible\n%s\ndir-visible\n' "$secret" | assert_file_is "$OUT" \
        "control: with its dir bound, the canary is visible inside with its content"
fi

# ---- ro-bind rejects writes; bind accepts them
# shellcheck disable=SC2016 # expanded inside the sandbox
writes='d=$1
for w in "touch $d/new" "echo changed >$d/existing" "rm $d/victim" "mkdir $d/newdir"; do
    if err=$(sh -c "$w" 2>&1); then echo "$w: ok"; else
        case $err in
        *"Read-only file system"*) echo "$w: EROFS" ;;
        *) echo "$w: other: $err" ;;
        esac
    fi
done'
fresh() { # fresh DIR: a host dir with two files
    mkdir -p "$1"
    printf 'original\n' >"$1/existing"
    printf 'victim\n' >"$1/victim"
}
snapshot() { (cd "$1" && find . -printf '%p %y %s\n' | sort && cat existing victim 2>&1); }

for kind in ro-bind bind; do
    d=$T/data-$kind
    fresh "$d"
    before=$(snapshot "$d")
    mkplan "$kind" <<EOF || continue
  - type: $kind
    source: "$d"
    target: /tmp/data
unshare:
  pid: true
  user: true
  network: true
EOF
    pre=
    [ "$kind" = bind ] && pre="control: "
    nx "$T/$kind.json" -- sh -c "$writes" writes /tmp/data
    assert_status 0 "$pre$kind: the write probe exits 0"
    if [ "$kind" = ro-bind ]; then
        want=EROFS
        label="ro-bind: every write fails with EROFS"
    else
        want=ok
        label="control: bind: every write succeeds"
    fi
    n_want=$(grep -c ": $want\$" "$OUT")
    if [ "$n_want" -eq 4 ]; then ok "$label"; else not_ok "$label" "$(show_file stdout "$OUT")"; fi
    after=$(snapshot "$d")
    if [ "$kind" = ro-bind ]; then
        assert_eq "$before" "$after" "ro-bind: the host dir is unchanged"
    else
        if [ -e "$d/new" ] && [ -d "$d/newdir" ] && [ ! -e "$d/victim" ] &&
            [ "$(cat "$d/existing")" = changed ]; then
            ok "control: bind: the host sees every write"
        else
            not_ok "control: bind: the host sees every write" "$after"
        fi
    fi
done

finish
