#!/bin/sh
# agent-nook launch script for sandbox 'all-keys', compiled by nookc 0.1.0 from 'profile.yaml'.
# Regenerate it rather than editing: every word below is quoted data.
# Usage: sh SCRIPT COMMAND [ARGS...]
set -eu
if [ "$#" -eq 0 ]; then
    printf '%s\n' 'usage: sh SCRIPT COMMAND [ARGS...]' >&2
    exit 2
fi
exec '/usr/bin/bwrap' \
    '--ro-bind' '/usr' '/usr' \
    '--bind-try' '/tmp' '/work/space' \
    '--perms' '1777' \
    '--size' '67108864' \
    '--tmpfs' '/tmp' \
    '--perms' '0700' \
    '--dir' '/tmp/cache' \
    '--proc' '/proc' \
    '--dev' '/dev' \
    '--dev-bind' '/dev/null' '/dev/null' \
    '--bind' '/tmp/nook-created' '/srv/state' \
    '--ro-bind' '/etc/hostname' '/srv/hostname' \
    '--cap-drop' 'ALL' \
    '--cap-add' 'CAP_NET_BIND_SERVICE' \
    '--cap-add' 'CAP_CHOWN' \
    '--unshare-pid' \
    '--unshare-uts' \
    '--unshare-ipc' \
    '--unshare-cgroup' \
    '--unshare-user' \
    '--unshare-net' \
    '--hostname' 'box' \
    '--unsetenv' 'AWS_SECRET_ACCESS_KEY' \
    '--unsetenv' 'GITHUB_TOKEN' \
    '--unsetenv' 'SSH_AUTH_SOCK' \
    '--setenv' 'PATH' '/usr/bin:/bin' \
    '--setenv' 'QUOTES' 'it'\''s "quoted" $(touch PWNED) `id` /home/golden' \
    '--setenv' 'MULTI' 'line one
line two' \
    '--setenv' 'EMPTY' '' \
    '--setenv' 'NUMBER' '42' \
    '--chdir' '/work/space' \
    '--' '/usr/bin/timeout' '--foreground' '--kill-after=5' '2.5' "$@"
