#!/bin/bash
# nook-exec: a plan that clears the environment (unset_vars: ALL, then PATH and FOO)
# leaves none of the caller's variables: `env` inside shows exactly FOO, PATH and PWD.
# Control: without the clearing, the caller's GITHUB_TOKEN is visible inside.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

token="ghp_secret$$x$RANDOM"
aws="aws-secret-$RANDOM"
mkplan clear <<'EOF'
unshare:
  pid: true
  user: true
  network: true
env_vars:
  PATH: /usr/bin:/bin
  FOO: foo value
unset_vars: ALL
EOF
mkplan keep <<'EOF'
unshare:
  pid: true
  user: true
  network: true
env_vars:
  FOO: foo value
EOF

# caller_nx PLAN: nook-exec PLAN -- env, with secrets in the caller's environment
caller_nx() {
    GITHUB_TOKEN=$token AWS_SECRET_ACCESS_KEY=$aws SSH_AUTH_SOCK=/tmp/agent.sock nx "$1" -- env
}

caller_nx "$T/clear.json"
assert_status 0 "cleared: env exits 0 inside"
names=$(sed -n 's/=.*//p' "$OUT" | sort | tr '\n' ' ')
assert_eq "FOO PATH PWD " "$names" "cleared: the environment inside is exactly FOO, PATH and PWD"
assert_grep '^FOO=foo value$' "$OUT" "cleared: FOO has the plan's value"
assert_grep '^PATH=/usr/bin:/bin$' "$OUT" "cleared: PATH has the plan's value"
assert_no_grep "$token|$aws|agent.sock" "$OUT" "cleared: no caller secret value appears inside"

# ---- control
caller_nx "$T/keep.json"
assert_status 0 "control: not cleared: env exits 0 inside"
assert_grep "^GITHUB_TOKEN=$token\$" "$OUT" "control: not cleared: the caller's GITHUB_TOKEN is visible inside"
assert_grep "^AWS_SECRET_ACCESS_KEY=$aws\$" "$OUT" \
    "control: not cleared: the caller's AWS_SECRET_ACCESS_KEY is visible inside"

finish
