#!/bin/sh
# agent-nook launch script for sandbox 'sort', compiled by nookc 0.1.0 from 'profile.yaml'.
# Regenerate it rather than editing: every word below is quoted data.
# Usage: sh SCRIPT COMMAND [ARGS...]
set -eu
if [ "$#" -eq 0 ]; then
    printf '%s\n' 'usage: sh SCRIPT COMMAND [ARGS...]' >&2
    exit 2
fi
exec '/usr/bin/bwrap' \
    '--die-with-parent' \
    '--new-session' \
    '--dir' '/opt/unrelated' \
    '--tmpfs' '/srv' \
    '--tmpfs' '/srv/app' \
    '--perms' '0700' \
    '--tmpfs' '/srv/app/data' \
    '--ro-bind' '@FIXTURE@/usr/lib' '/srv/app/data/lib' \
    '--ro-bind' '@FIXTURE@/usr/share' '/srv/app/data/share' \
    '--bind' '/tmp' '/srv/app/data/cache' \
    '--remount-ro' '/srv/app/data' \
    '--cap-drop' 'ALL' \
    '--' "$@"
