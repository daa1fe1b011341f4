#!/bin/bash
# ro-bind rejects writes from inside (I02); control: the same dir as a rw bind lets them through.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# profile TYPE HOSTDIR FILE: a profile binding HOSTDIR at /tmp/data with mount TYPE
profile() {
    cat >"$3" <<EOF
name: ro-bind-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: proc
    target: /proc
  - type: dev
    target: /dev
  - type: tmpfs
    target: /tmp
  - type: $1
    source: "$2"
    target: /tmp/data
unshare:
  pid: true
  user: true
  network: true
EOF
}

# fresh_dir NAME: a host dir with known files
fresh_dir() {
    local d=$T/$1
    mkdir -p "$d/sub"
    printf 'original\n' >"$d/existing"
    printf 'victim\n' >"$d/victim"
    printf 'in sub\n' >"$d/sub/file"
    touch -d '2001-02-03 04:05:06' "$d/existing" "$d/victim" "$d/sub/file" "$d/sub" "$d"
    echo "$d"
}

# snapshot DIR: names, types, sizes, modes, mtimes and contents
snapshot() {
    (cd "$1" && find . -printf '%p %y %s %m %T@\n' | sort && find . -type f -exec md5sum {} + | sort)
}

# Every write is tried; each prints "NAME: ok", "NAME: EROFS" or "NAME: other: MESSAGE".
probe='d=$1
try() {
    name=$1
    shift
    if err=$("$@" 2>&1); then
        echo "$name: ok"
    else
        case $err in
        *"Read-only file system"*) echo "$name: EROFS" ;;
        *) echo "$name: other: $err" ;;
        esac
    fi
}
try touch touch "$d/new"
try redirect sh -c "echo changed >\"\$1\"" sh "$d/existing"
try append sh -c "echo more >>\"\$1\"" sh "$d/sub/file"
try mkdir mkdir "$d/newdir"
try mv mv "$d/existing" "$d/moved"
try rm rm "$d/victim"
try chmod chmod 0600 "$d/sub/file"
try touch-mtime touch "$d/sub"
'
ops="touch redirect append mkdir mv rm chmod touch-mtime"

# ---- ro-bind: every write fails with EROFS, the host dir is unchanged
check_ro() {
    local mode=$1 op
    assert_status 0 "ro-bind probe ran via $mode"
    for op in $ops; do
        assert_grep "^$op: EROFS\$" "$OUT" "ro-bind: $op fails with EROFS via $mode"
    done
    local after
    after=$(snapshot "$ro")
    if [ "$before" = "$after" ]; then
        ok "ro-bind: the host dir is unchanged via $mode"
    else
        not_ok "ro-bind: the host dir is unchanged via $mode" "before:" "$before" "after:" "$after"
    fi
}
ro=$(fresh_dir ro)
profile ro-bind "$ro" "$T/ro.yaml"
before=$(snapshot "$ro")
run_both check_ro "$T/ro.yaml" sh -c "$probe" probe /tmp/data

# ---- control: the same probe on a rw bind succeeds and the host sees the writes
check_rw() {
    local mode=$1 op
    assert_status 0 "control: rw bind probe ran via $mode"
    for op in $ops; do
        assert_grep "^$op: ok\$" "$OUT" "control: rw bind lets $op through via $mode"
    done
    assert_exists "$rw/new" "control: the file touched inside appears on the host via $mode"
    if [ "$(cat "$rw/moved" 2>/dev/null)" = changed ]; then
        ok "control: the host sees the rewritten, renamed file via $mode"
    else
        not_ok "control: the host sees the rewritten, renamed file via $mode" "$(ls -la "$rw")"
    fi
}
for m in sh argv; do
    rw=$(fresh_dir "rw-$m")
    profile bind "$rw" "$T/rw-$m.yaml"
    sandbox "$m" "$T/rw-$m.yaml" sh -c "$probe" probe /tmp/data
    check_rw "$m"
done

finish
