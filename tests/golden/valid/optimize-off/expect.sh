#!/bin/sh
# agent-nook launch script for sandbox 'optimize', compiled by nookc 0.1.0 from 'profile.yaml'.
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
    '--ro-bind' '@FIXTURE@' '/srv/root' \
    '--ro-bind' '@FIXTURE@/usr/share' '/srv/root/usr/share' \
    '--ro-bind' '@FIXTURE@/etc' '/srv/root/etc' \
    '--bind' '@FIXTURE@/data' '/srv/root/data' \
    '--ro-bind' '@FIXTURE@/etc' '/srv/root/usr/lib' \
    '--ro-bind' '@FIXTURE@/lib' '/srv/root/lib' \
    '--ro-bind-try' '@FIXTURE@/file' '/srv/root/file' \
    '--bind' '@FIXTURE@/data' '/srv/rw' \
    '--bind' '@FIXTURE@/data/sub' '/srv/rw/sub' \
    '--cap-drop' 'ALL' \
    '--' "$@"
