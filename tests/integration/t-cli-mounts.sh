#!/bin/bash
# agent-nook run: a mount on the command line whose target equals a profile mount's
# target replaces it; others are added. A profile with a (marker-less) tmpfs on /srv/x:
# `--bind HOSTDIR:/srv/x` shows the host marker there and is writable (control: without
# it /srv/x is an empty tmpfs); `--ro-bind HOSTDIR:/srv/y` is added next to the tmpfs,
# which stays; the bwrap command line (--dry-run) has the bind instead of the tmpfs.
# With the default profile, `--tmpfs /tmp:5M` replaces its /tmp (5 MiB inside; control:
# the default /tmp is larger) and the project bound under it stays.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

data=$T/data
mkdir "$data"
echo "host marker $$" >"$data/marker"
mkprofile srv <<'EOF'
  - type: tmpfs
    target: /srv/x
unshare:
  pid: true
  user: true
EOF
P=$T/srv.yaml

# prints, for each directory argument: its filesystem type, then its entries
# shellcheck disable=SC2016 # expanded inside the sandbox
probe='for d in "$@"; do
  if [ -d "$d" ]; then echo "$d: $(stat -f -c %T "$d") [$(ls -A "$d" | tr "\n" " ")]"; else echo "$d: absent"; fi
done
cat /srv/x/marker 2>/dev/null
{ echo inside >/srv/x/written; } 2>/dev/null && echo "written"'

# ---- the profile alone
an run --config "$P" sh -c "$probe" probe /srv/x /srv/y
assert_status 0 "control: the profile alone: the probe exits 0"
assert_grep "^/srv/x: tmpfs \[ ?\]\$" "$OUT" "control: the profile alone: /srv/x is an empty tmpfs"
assert_no_grep "^host marker" "$OUT" "control: the profile alone: the host marker is absent"
assert_grep "^/srv/y: absent\$" "$OUT" "control: the profile alone: /srv/y does not exist"
assert_absent "$data/written" "control: the profile alone: a write to /srv/x stays off the host"

# ---- --bind on the same target replaces the tmpfs
rm -f "$data/written"
an run --config "$P" --bind "$data":/srv/x sh -c "$probe" probe /srv/x
assert_status 0 "--bind $data:/srv/x over the profile's tmpfs: exit 0"
assert_grep "^host marker $$\$" "$OUT" "--bind HOSTDIR:/srv/x: the host marker shows at /srv/x"
assert_no_grep "^/srv/x: tmpfs" "$OUT" "--bind HOSTDIR:/srv/x: /srv/x is no longer a tmpfs"
assert_grep "^written\$" "$OUT" "--bind HOSTDIR:/srv/x: /srv/x is writable inside"
assert_eq inside "$(cat "$data/written" 2>&1)" "--bind HOSTDIR:/srv/x: the file written inside is on the host"
rm -f "$data/written"

# ---- another target is added; the profile's tmpfs stays
an run --config "$P" --ro-bind "$data":/srv/y sh -c "$probe" probe /srv/x /srv/y
assert_status 0 "--ro-bind $data:/srv/y: exit 0"
assert_grep "^/srv/y: [^ ]+ \[marker \]\$" "$OUT" "--ro-bind HOSTDIR:/srv/y: the host dir shows at /srv/y"
assert_grep "^/srv/x: tmpfs \[ ?\]\$" "$OUT" "--ro-bind HOSTDIR:/srv/y: the profile's tmpfs on /srv/x stays"

# ---- the bwrap command line
an run --config "$P" --dry-run true
assert_grep "'--tmpfs' '/srv/x'" "$OUT" "control: --dry-run of the profile alone has --tmpfs /srv/x"
an run --config "$P" --bind "$data":/srv/x --dry-run true
assert_no_grep "'--tmpfs' '/srv/x'" "$OUT" "--dry-run with --bind HOSTDIR:/srv/x: no --tmpfs /srv/x"
assert_grep "'--bind' '$data' '/srv/x'" "$OUT" "--dry-run with --bind HOSTDIR:/srv/x: the bind instead"

# ---- the default profile's /tmp, replaced by a sized one
# shellcheck disable=SC2016 # expanded inside the sandbox
size='echo $(($(stat -f -c %b /tmp) * $(stat -f -c %S /tmp))); pwd -P; echo in-project >written'
an run --tmpfs /tmp:5M sh -c "$size"
assert_status 0 "--tmpfs /tmp:5M with the default profile: exit 0 (no duplicate target)"
assert_eq 5242880 "$(sed -n 1p "$OUT")" "--tmpfs /tmp:5M replaces the default profile's /tmp: 5 MiB inside"
assert_eq "$PROJECT" "$(sed -n 2p "$OUT")" "--tmpfs /tmp:5M: the project under /tmp is still bound and the cwd"
assert_eq in-project "$(cat "$PROJECT/written" 2>&1)" "--tmpfs /tmp:5M: the project is still read-write"
an run sh -c "$size"
assert_ne 5242880 "$(sed -n 1p "$OUT")" "control: the default profile's own /tmp is not 5 MiB ($(sed -n 1p "$OUT"))"

finish
