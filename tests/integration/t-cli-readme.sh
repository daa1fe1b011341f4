#!/bin/bash
# agent-nook run: every example of the README's "Every example of the original README
# works as written there" block, as written (only the script names replaced by probes),
# each checked from inside the sandbox, with the default profile agent-nook writes on
# first use: --command; python3 -c; --bind to a new mount point under the read-only /
# (/sandbox does not exist on the host); --ro-bind (reads work, writes fail with EROFS);
# --config; --cap-add (CapEff exactly 0x80400); --cap-drop; --unshare in the space form;
# --env; --unset-env; --hostname; --chdir; --quiet; a sized --tmpfs; the "full
# isolation" example; a sized tmpfs written in a config file. Controls: the same probes
# without the option (or on the host) show the opposite.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

host_name=$(uname -n)

# ---- --command
an run --command "echo hello from sandbox"
echo "hello from sandbox" | expect_run 0 "--command 'echo hello from sandbox': exit 0, stdout exactly that line"
# shellcheck disable=SC2016 # expanded inside the sandbox
an run --command 'echo "$(uname -n) $$"'
assert_out "agent-sandbox 2" "--command runs /bin/sh -c inside: hostname agent-sandbox, pid 2"
assert_ne agent-sandbox "$host_name" "control: the host's name ($host_name) is not agent-sandbox"

# ---- python3 -c
if ! command -v python3 >/dev/null; then
    not_ok "python3 is in PATH ($PATH) on this machine" "the README example needs it"
else
    an run python3 -c "print('hello')"
    echo hello | expect_run 0 "python3 -c \"print('hello')\": exit 0, stdout exactly hello"
    an run python3 -c "import os, socket; print(socket.gethostname(), os.getpid())"
    assert_out "agent-sandbox 2" "python3 runs inside: hostname agent-sandbox, pid 2"
fi

# ---- --bind HOSTDIR:/sandbox/data, a new mount point under the read-only /
data=$T/data
mkdir "$data"
echo "marker $$" >"$data/marker"
assert_absent /sandbox "precondition: /sandbox does not exist on the host"
# shellcheck disable=SC2016 # expanded inside the sandbox
probe='cat /sandbox/data/marker 2>&1
{ echo written-inside >/sandbox/data/new; } 2>&1 && echo "wrote $1"
touch /root-probe 2>&1
test -x /usr/bin/env && test -r /etc/passwd && echo "host tree visible"'
an run --bind "$data":/sandbox/data sh -c "$probe" probe data
assert_grep "^marker $$\$" "$OUT" "--bind $data:/sandbox/data: the host marker is readable at /sandbox/data/marker"
assert_eq written-inside "$(cat "$data/new" 2>&1)" "--bind: /sandbox/data is writable, the file written inside is on the host"
assert_grep "root-probe.*Read-only file system" "$OUT" "--bind: / is still read-only (EROFS)"
assert_grep "^host tree visible\$" "$OUT" "--bind: the rest of the host tree is still there"
assert_absent /sandbox "--bind: /sandbox was not created on the host"
an run sh -c "$probe" probe nothing
assert_grep "^cat: /sandbox/data/marker: No such file or directory\$" "$OUT" \
    "control: without --bind, /sandbox/data/marker does not exist inside"
assert_no_grep "^wrote" "$OUT" "control: without --bind, /sandbox/data cannot be written"

# ---- --ro-bind HOSTDIR:/sandbox/config
rm -f "$data/new"
an run --ro-bind "$data":/sandbox/config sh -c \
    'cat /sandbox/config/marker; { echo x >/sandbox/config/new; } 2>&1 || echo "write failed"'
assert_grep "^marker $$\$" "$OUT" "--ro-bind $data:/sandbox/config: the host marker is readable at /sandbox/config/marker"
assert_grep "/sandbox/config/new: Read-only file system" "$OUT" "--ro-bind: a write fails with EROFS"
assert_absent "$data/new" "--ro-bind: nothing was written to the host dir"
an run --bind "$data":/sandbox/config sh -c \
    'cat /sandbox/config/marker; { echo x >/sandbox/config/new; } 2>&1 || echo "write failed"'
assert_no_grep "write failed" "$OUT" "control: the same write through --bind succeeds"
assert_exists "$data/new" "control: the write through --bind reached the host"
rm -f "$data/new"

# ---- --config PATH
custom_host=custom-$$
mkprofile custom <<EOF
unshare:
  pid: true
  user: true
hostname: $custom_host
EOF
an run --config "$T/custom.yaml" uname -n
echo "$custom_host" | expect_run 0 "--config $T/custom.yaml: exit 0, the custom profile's hostname $custom_host inside"
an run uname -n
assert_out agent-sandbox "control: without --config the default profile's agent-sandbox shows"

# ---- capabilities
caps='grep -E "^Cap(Prm|Eff):" /proc/self/status'
an run --cap-add NET_BIND_SERVICE --cap-add SYS_PTRACE sh -c "$caps"
printf 'CapPrm:\t0000000000080400\nCapEff:\t0000000000080400\n' | expect_run 0 \
    "--cap-add NET_BIND_SERVICE --cap-add SYS_PTRACE: exit 0, CapEff exactly 0x80400 (bits 10 and 19)"
an run sh -c "$caps"
printf 'CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n' | expect_run 0 \
    "control: without --cap-add, CapEff is 0"
an run --cap-drop SYS_ADMIN --cap-drop SYS_PTRACE sh -c "$caps"
printf 'CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n' | expect_run 0 \
    "--cap-drop SYS_ADMIN --cap-drop SYS_PTRACE: exit 0, CapEff 0"
# on top of a profile keeping every capability, the two drops clear exactly their bits
mkprofile allcaps <<'EOF'
unshare:
  pid: true
  user: true
capabilities:
  keep: [ALL]
EOF
capeff() { sed -n 's/^CapEff:[[:space:]]*//p' "$OUT"; }
an run --config "$T/allcaps.yaml" sh -c "$caps"
all=$(capeff)
an run --config "$T/allcaps.yaml" --cap-drop SYS_ADMIN --cap-drop SYS_PTRACE sh -c "$caps"
dropped=$(capeff)
if [ -n "$all" ] && [ $((0x$all & 0x280000)) -eq $((0x280000)) ]; then
    ok "control: keep: [ALL] has SYS_ADMIN and SYS_PTRACE in CapEff ($all)"
else
    not_ok "control: keep: [ALL] has SYS_ADMIN and SYS_PTRACE in CapEff" "CapEff: $all"
fi
if [ -n "$dropped" ] && [ -n "$all" ] && [ $((0x$dropped)) -eq $((0x$all & ~0x280000)) ]; then
    ok "keep: [ALL] with --cap-drop SYS_ADMIN --cap-drop SYS_PTRACE: exactly those two bits go ($dropped)"
else
    not_ok "keep: [ALL] with --cap-drop SYS_ADMIN --cap-drop SYS_PTRACE: exactly those two bits go" \
        "all: $all" "dropped: $dropped" "$(show_run)"
fi

# ---- --unshare pid uts ipc CMD (the space-separated form)
an run --unshare pid uts ipc sh -c "$NS_PROBE" probe pid uts ipc
assert_status 0 "--unshare pid uts ipc sh ...: exit 0 (sh is the command, not a namespace)"
got=
in_pid=$(sed -n 1p "$OUT")
[ -n "$in_pid" ] && [ "$in_pid" -le 3 ] 2>/dev/null && got="low-pid"
k=2
for ns in pid uts ipc; do
    inside=$(sed -n ${k}p "$OUT")
    k=$((k + 1))
    case $inside in
    "$(host_ns $ns)") got+=" $ns=host" ;;
    "$ns:["*) got+=" $ns=new" ;;
    *) got+=" $ns=?" ;;
    esac
done
assert_eq "low-pid pid=new uts=new ipc=new" "$got" \
    "--unshare pid uts ipc: \$\$ is at most 3, and the pid, uts and ipc namespaces differ from the host's"
# (the controls, a profile without these namespaces, are in t-cli-ns.sh)

# ---- --env, --unset-env (checked with env(1): dash makes up a PATH of its own)
envs='/usr/bin/env | grep -E "^(PATH|HOME)=" | sort'
an run --env PATH=/usr/bin --env HOME=/root /bin/sh -c "$envs"
printf 'HOME=/root\nPATH=/usr/bin\n' | expect_run 0 \
    "--env PATH=/usr/bin --env HOME=/root: exit 0, env inside has HOME=/root and PATH=/usr/bin"
an run /bin/sh -c "$envs"
printf 'HOME=%s\nPATH=%s\n' "$HOME" "$PATH" | expect_run 0 \
    "control: without --env, the caller's HOME and PATH are inside"
an run --unset-env PATH --unset-env HOME /usr/bin/env
assert_no_grep "^(PATH|HOME)=" "$OUT" "--unset-env PATH --unset-env HOME: neither is in env inside"
assert_grep "^LC_ALL=C\$" "$OUT" "--unset-env PATH --unset-env HOME: the other variables stay"
an run /usr/bin/env
assert_grep "^PATH=" "$OUT" "control: without --unset-env, PATH is in env inside"
assert_grep "^HOME=" "$OUT" "control: without --unset-env, HOME is in env inside"

# ---- --hostname
an run --hostname my-agent sh -c 'uname -n; cat /proc/sys/kernel/hostname'
printf 'my-agent\nmy-agent\n' | expect_run 0 "--hostname my-agent: exit 0, uname -n and the kernel say my-agent"
assert_eq "$host_name" "$(uname -n)" "--hostname my-agent: the host's name is unchanged"

# ---- --chdir
mkdir -p "$PROJECT/sub"
an run --chdir "$PROJECT/sub" pwd -P
echo "$PROJECT/sub" | expect_run 0 "--chdir $PROJECT/sub: exit 0, pwd inside is that directory"
an run --chdir /usr/share pwd -P
assert_out /usr/share "--chdir /usr/share: pwd inside is /usr/share"
an run pwd -P
assert_out "$PROJECT" "control: without --chdir, pwd inside is the project ($PROJECT)"

# ---- --quiet: nothing on stderr from agent-nook; control: the same run without it warns
printf 'not a directory\n' >"$T/afile"
XDG_STATE_HOME=$T/afile an run true
assert_grep "^agent-nook: warning: " "$ERR" "control: a log that cannot be written: a warning on stderr"
XDG_STATE_HOME=$T/afile an run --quiet true
assert_status 0 "--quiet with a log that cannot be written: exit 0"
assert_no_stderr "--quiet with a log that cannot be written: nothing on stderr"
XDG_STATE_HOME=$T/afile an -q run true
assert_no_stderr "-q before run: nothing on stderr either"
an run --quiet sh -c 'echo to-stderr >&2; echo to-stdout'
assert_out to-stdout "--quiet: the payload's stdout is still passed on"
assert_eq to-stderr "$(cat "$ERR")" "--quiet: the payload's own stderr is still passed on"

# ---- --tmpfs /sandbox/cache:10M
# prints the size of the filesystem at $1 in bytes, then tries to write 11 MiB into it
# shellcheck disable=SC2016 # expanded inside the sandbox
sizeprobe='echo $(($(stat -f -c %b "$1") * $(stat -f -c %S "$1")))
stat -f -c %T "$1"
head -c 11M /dev/zero 2>&1 >"$1/big" || echo "write failed"'
an run --tmpfs /sandbox/cache:10M sh -c "$sizeprobe" probe /sandbox/cache
assert_eq "10485760 tmpfs" "$(sed -n 1,2p "$OUT" | tr '\n' ' ' | sed 's/ $//')" \
    "--tmpfs /sandbox/cache:10M: a tmpfs of 10 MiB"
assert_grep "No space left on device" "$OUT" "--tmpfs /sandbox/cache:10M: 11 MiB do not fit (ENOSPC)"
an run --tmpfs /sandbox/cache sh -c "$sizeprobe" probe /sandbox/cache
assert_ne 10485760 "$(sed -n 1p "$OUT")" "control: --tmpfs /sandbox/cache without a size is not 10 MiB ($(sed -n 1p "$OUT"))"
assert_no_grep "write failed" "$OUT" "control: 11 MiB fit in the unsized tmpfs"

# ---- the "full isolation" example
# shellcheck disable=SC2016 # expanded inside the sandbox
an run --cap-drop ALL --unshare pid,ipc,uts,user --dir /sandbox --chdir /sandbox \
    --env HOME=/sandbox/home --env PATH=/usr/bin:/bin sh -c 'pwd; echo $HOME'
printf '/sandbox\n/sandbox/home\n' | expect_run 0 \
    "full isolation example: exit 0, pwd is /sandbox and HOME is /sandbox/home"
assert_absent /sandbox "full isolation example: /sandbox was not created on the host"

# ---- a sized tmpfs in a config file
mkprofile sized <<'EOF'
  - type: tmpfs
    target: /sandbox/cache
    size: 10M
unshare:
  pid: true
  user: true
EOF
mkprofile unsized <<'EOF'
  - type: tmpfs
    target: /sandbox/cache
unshare:
  pid: true
  user: true
EOF
an run --config "$T/sized.yaml" sh -c "$sizeprobe" probe /sandbox/cache
assert_eq 10485760 "$(sed -n 1p "$OUT")" "a profile's tmpfs with size: 10M holds 10 MiB"
assert_grep "No space left on device" "$OUT" "a profile's tmpfs with size: 10M: 11 MiB do not fit"
an run --config "$T/unsized.yaml" sh -c "$sizeprobe" probe /sandbox/cache
assert_ne 10485760 "$(sed -n 1p "$OUT")" "control: the same profile without size: not 10 MiB"

finish
