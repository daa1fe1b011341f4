/* lint.c - see lint.h. */
#include "lint.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "../runtime/names.h"
#include "view.h"
#include "yamltree.h"

/* ---- the rules -------------------------------------------------------------------- */

/* Severity: the catalogue's critical is an error, high and medium are warnings, low is
 * info; its "error" (a guaranteed failure at run time) is an error.
 *
 * "Visible" below means: view_find_host() finds the host path (a pattern: $HOME, /root
 * and every /home/<user> for the home-relative lists) at a sandbox path whose deciding
 * op is the bind that shows it - so a later tmpfs or bind over the path, or over an
 * ancestor of it, hides it; "writable" adds that this op writes to the host (bind,
 * dev-bind, overlay upper directory). Existence on the host is not required (a missing
 * ~/.aws appears as soon as it is created), except where a rule says so. A "mask" is a
 * tmpfs, ro-bind, ro-overlay or tmp-overlay whose target lies inside what a host bind
 * shows (the op that decides its target among the ops before it is a bind). */
enum rule {
    /* Host root writable: a bind or dev-bind whose source, resolved on the host, is
     * '/'. One finding per op. */
    R_FS_001,
    /* Credential paths visible (read-only counts): ~/.ssh ~/.aws ~/.gnupg ~/.kube
     * ~/.docker ~/.azure ~/.config/gcloud ~/.config/gh ~/.git-credentials ~/.netrc
     * ~/.npmrc ~/.pypirc ~/.vault-token ~/.terraform.d ~/.config/op ~/.password-store
     * ~/.local/share/keyrings and browser profiles (~/.mozilla, ~/.config/google-chrome,
     * ~/.config/chromium) under each home, /etc/shadow, /etc/gshadow and the ssh host
     * keys; also a bind whose source lies inside one. One finding per showing op. */
    R_FS_003,
    /* dev-bind whose source, resolved, is '/' or '/dev'. */
    R_DEV_001,
    /* Host /proc visible: /proc, or a path inside it, shown by a bind. */
    R_PROC_002,
    /* Control socket visible, read-only binds included (connect() needs no write
     * permission on the file system): docker, podman, containerd, cri-o, libvirt and
     * snapd sockets, the D-Bus system and session buses, systemd's private sockets,
     * gpg-agent, gnome-keyring and ssh-agent sockets ($SSH_AUTH_SOCK of the lint run
     * and /tmp/ssh-*), X11 (/tmp/.X11-unix), Wayland, PulseAudio, PipeWire and tmux. */
    R_SOCK_001,
    /* Capabilities kept: one finding per name in the plan's --cap-add list (ALL
     * included), at its entry in capabilities.keep. */
    R_CAP_002,
    /* Secret-shaped variable set by env_vars: its name matches *_TOKEN, *_SECRET*,
     * *_PASSWORD, *_PASSWD, *_API_KEY, *_KEY, AWS_*, AZURE_*, OP_*, GOOGLE_APPLICATION_
     * CREDENTIALS, KUBECONFIG, DOCKER_AUTH_CONFIG (case-insensitive), or its value, as
     * written, passes one on with ${NAME}. Inherited variables are NKL-ENV-003's. */
    R_ENV_001,
    /* A home directory writable: $HOME, /root, /home or a /home/<user> (or an ancestor
     * other than '/', which is NKL-FS-001's) visible and writable. */
    R_FS_002,
    /* Persistence paths writable. Under each home: shell rc and profile files
     * (.bashrc .bash_profile .bash_login .bash_logout .profile .zshrc .zshenv .zprofile
     * .zlogin .config/fish), .config/autostart, .config/systemd/user,
     * .config/environment.d, .local/bin, bin, .gitconfig, .config/git, .xprofile,
     * .xsessionrc. Directly under the target of every bind or overlay (not dev-bind)
     * whose source is a directory (or missing) other than '/': .git/hooks .git/config
     * .gitmodules .envrc .env .vscode .idea .claude .mcp.json node_modules/.bin pyvenv.cfg,
     * when that bind decides the path. Deeper repositories are not searched. */
    R_FS_004,
    /* A mask under a writable bind with an ordinary directory between the bind's
     * target and the mask's target (no op targets it): renaming that directory moves
     * the mask away and the agent recreates the path. */
    R_FS_005,
    /* A mask whose path on the host (through the bind it lies in) is a symlink, or
     * passes through one: bwrap follows it and mounts on the link's target. Reads the
     * host. */
    R_FS_006,
    /* A mask that is bypassed: the host path it hides is visible elsewhere in the
     * sandbox through another bind of the same host tree (for a read-only mask of the
     * path itself: writable elsewhere). After sorting, no later op can cover an earlier
     * one's target (parents always come first and equal targets are refused), so this
     * re-exposure is what remains of "a mount hidden by a later mount". */
    R_FS_008,
    /* A bind whose source is writable in the sandbox through another op (the source
     * itself or an ancestor of it is shown by a writable bind): the agent prepares
     * what a later run mounts, symlinks included. */
    R_FS_010,
    /* dev-bind of anything but /dev/null, zero, full, random, urandom, tty (and not
     * '/' or '/dev', NKL-DEV-001's). */
    R_DEV_002,
    /* A proc op without a pid namespace. */
    R_PROC_001,
    /* Broad runtime directories visible: /run, /var/run, /tmp, /run/user/<uid> (a bind
     * of the directory or an ancestor); sockets created later appear in them. */
    R_SOCK_002,
    /* A proxy variable (http_proxy, https_proxy, all_proxy, ftp_proxy, any case) set
     * while the network is shared: a program can ignore it. */
    R_NET_002,
    /* new_session: false (no TIOCSTI filter exists to make up for it). */
    R_TTY_001,
    /* Capability-pointer variable set by env_vars: SSH_AUTH_SOCK, GPG_AGENT_INFO,
     * DBUS_SESSION_BUS_ADDRESS, DBUS_SYSTEM_BUS_ADDRESS, DISPLAY, WAYLAND_DISPLAY,
     * XAUTHORITY, DOCKER_HOST, CONTAINER_HOST. */
    R_ENV_002,
    /* The environment is not cleared (no unset_vars: ALL): everything the caller has
     * reaches the sandbox. */
    R_ENV_003,
    /* The profile file (realpath) or its directory is writable in the sandbox. */
    R_EXEC_003,
    /* A mask over a path that does not exist on the host below an existing bind
     * source: bwrap creates the mount point on the host, and only that one name is
     * covered. Reads the host. */
    R_FS_007,
    /* An optional (-try) bind that is a mask or covers host files: a missing source
     * drops it silently and what it covers shows. */
    R_FS_013,
    /* Host /sys visible: /sys, or a path inside it, shown by a bind. */
    R_SYS_001,
    /* The network namespace is not unshared. */
    R_NET_001,
    /* The pid namespace is not unshared. */
    R_NS_001,
    /* die_with_parent: false. */
    R_LIFE_001,
    /* Injection variable set by env_vars: LD_*, BASH_ENV, ENV, PROMPT_COMMAND, IFS,
     * PYTHONPATH, PYTHONSTARTUP, NODE_OPTIONS, PERL5OPT, PERL5LIB, RUBYOPT, RUBYLIB,
     * JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, DOTNET_STARTUP_HOOKS, GOFLAGS. */
    R_ENV_004,
    /* A tmpfs of the profile without size (room-made ones are not the profile's). */
    R_FS_012,
    /* ipc, uts or cgroup namespace not unshared (one finding). */
    R_NS_002,
    /* No timeout. */
    R_LIFE_003,
    /* The working directory (chdir) cannot exist: on bwrap's root or a tmpfs with no
     * op at or below it, or below a bind whose existing source lacks it. */
    R_MISC_001,
    /* A suppression without a reason (it does not suppress). */
    R_LINT_001,
    /* A malformed suppression, or one naming an unknown rule. */
    R_LINT_002,
    R_COUNT,
};

const struct lint_rule lint_rules[] = {
    [R_FS_001] = {"NKL-FS-001", LINT_ERROR, "critical", "the host's root directory is writable",
                  "bind '/' read-only (type: ro-bind) and bind read-write only the "
                  "directories the agent must change"},
    [R_FS_003] = {"NKL-FS-003", LINT_ERROR, "critical",
                  "credential files are readable: keys and tokens can be exfiltrated",
                  "hide them with a tmpfs over the directory, or bind only what the agent "
                  "needs instead of an ancestor"},
    [R_DEV_001] = {"NKL-DEV-001", LINT_ERROR, "critical",
                   "the host's /dev is bound with device access: raw disks, /dev/kvm, "
                   "/dev/mem",
                   "use a 'dev' mount (bwrap's minimal /dev) and dev-bind single devices"},
    [R_PROC_002] = {"NKL-PROC-002", LINT_ERROR, "critical",
                    "the host's /proc is visible: other processes, /proc/1, sysrq, "
                    "core_pattern",
                    "mount a fresh proc (type: proc) with a pid namespace instead"},
    [R_SOCK_001] = {"NKL-SOCK-001", LINT_ERROR, "critical",
                    "a control socket is reachable: one connect() can escape (docker, "
                    "D-Bus, agents); read-only does not help",
                    "hide the socket or its directory with a tmpfs, or do not bind it"},
    [R_CAP_002] = {"NKL-CAP-002", LINT_ERROR, "critical",
                   "capabilities are kept: they can undo masks and widen the kernel surface",
                   "remove the capability from capabilities.keep"},
    [R_ENV_001] = {"NKL-ENV-001", LINT_ERROR, "critical",
                   "a secret-shaped variable is passed to the sandbox: token theft",
                   "leave the secret out, or give the agent a narrowly scoped credential"},
    [R_FS_002] = {"NKL-FS-002", LINT_WARNING, "high",
                  "a home directory is writable: persistence and credential theft",
                  "bind only the project directory read-write; keep the home hidden "
                  "(tmpfs) or read-only"},
    [R_FS_004] = {"NKL-FS-004", LINT_WARNING, "high",
                  "persistence paths are writable: code placed there runs later on the host",
                  "mount them read-only directly over the writable bind (a ro-bind of "
                  "'.git' onto itself), or review them before using the tree on the host"},
    [R_FS_005] = {"NKL-FS-005", LINT_WARNING, "high",
                  "a mask can be renamed away: an ordinary directory lies between it and "
                  "the writable bind",
                  "mask the directory directly under the writable bind instead"},
    [R_FS_006] = {"NKL-FS-006", LINT_WARNING, "high",
                  "a mask is on a symlink: bwrap follows it and the link stays replaceable",
                  "mask the path the link points to, or remove the link"},
    [R_FS_008] = {"NKL-FS-008", LINT_WARNING, "high",
                  "a masked host path is visible elsewhere through another bind",
                  "mask it under the other bind too, or do not bind the same host tree twice"},
    [R_FS_010] = {"NKL-FS-010", LINT_WARNING, "high",
                  "a bind source is writable in the sandbox: the agent controls what a "
                  "later run mounts",
                  "keep bind sources outside every writable bind"},
    [R_DEV_002] = {"NKL-DEV-002", LINT_WARNING, "high",
                   "a device outside the safe set is usable in the sandbox",
                   "use a 'dev' mount, or bind the device only if the agent needs it"},
    [R_PROC_001] = {"NKL-PROC-001", LINT_WARNING, "high",
                    "proc without a pid namespace shows the host's processes and their "
                    "command lines",
                    "set unshare.pid: true"},
    [R_SOCK_002] = {"NKL-SOCK-002", LINT_WARNING, "high",
                    "a broad runtime directory is visible (/run, /tmp): sockets appear in "
                    "it now or later",
                    "hide it with a tmpfs and bind only what the agent needs"},
    [R_NET_002] = {"NKL-NET-002", LINT_WARNING, "high",
                   "proxy variables do not restrict a shared network",
                   "set unshare.network: true; a proxy variable is advice, not a boundary"},
    [R_TTY_001] = {"NKL-TTY-001", LINT_WARNING, "high",
                   "without a new session the sandbox can push keystrokes into the "
                   "terminal (TIOCSTI, CVE-2017-5226)",
                   "remove 'new_session: false'"},
    [R_ENV_002] = {"NKL-ENV-002", LINT_WARNING, "high",
                   "a variable points at a host capability (agent, bus, display)",
                   "leave it out; the socket it names is a way out of the sandbox"},
    [R_ENV_003] = {"NKL-ENV-003", LINT_WARNING, "high",
                   "the environment is inherited: every variable of the caller leaks in",
                   "set 'unset_vars: ALL' and pass what the agent needs in env_vars"},
    [R_EXEC_003] = {"NKL-EXEC-003", LINT_WARNING, "high",
                    "the profile is writable in the sandbox: the agent can rewrite its next "
                    "policy",
                    "keep the profile outside every writable bind"},
    [R_FS_007] = {"NKL-FS-007", LINT_WARNING, "medium",
                  "a mask covers a path that does not exist on the host",
                  "mask an existing parent directory, or create the path first"},
    [R_FS_013] = {"NKL-FS-013", LINT_WARNING, "medium",
                  "an optional mount guards something: a missing source drops the "
                  "protection silently",
                  "remove 'optional: true', or mask with a tmpfs, which needs no source"},
    [R_SYS_001] = {"NKL-SYS-001", LINT_WARNING, "medium",
                   "the host's /sys is visible: hardware and kernel details",
                   "hide /sys with a tmpfs, or bind only the parts the agent needs"},
    [R_NET_001] = {"NKL-NET-001", LINT_WARNING, "medium",
                   "the network is shared with the host: exfiltration, host services, "
                   "abstract sockets",
                   "set unshare.network: true"},
    [R_NS_001] = {"NKL-NS-001", LINT_WARNING, "medium",
                  "no pid namespace: a timeout cannot kill the whole process tree",
                  "set unshare.pid: true"},
    [R_LIFE_001] = {"NKL-LIFE-001", LINT_WARNING, "medium",
                    "the sandbox can outlive its caller", "remove 'die_with_parent: false'"},
    [R_ENV_004] = {"NKL-ENV-004", LINT_WARNING, "medium",
                   "an injection variable is set: it changes what programs load and run",
                   "leave it out of env_vars"},
    [R_FS_012] = {"NKL-FS-012", LINT_INFO, "low",
                  "a tmpfs without size can fill the host's memory",
                  "give the tmpfs a size (size: 512M)"},
    [R_NS_002] = {"NKL-NS-002", LINT_INFO, "low",
                  "ipc, uts or cgroup namespace shared: host SysV IPC, hostname, cgroup paths",
                  "unshare them (unshare.ipc, .uts, .cgroup: true)"},
    [R_LIFE_003] = {"NKL-LIFE-003", LINT_INFO, "low",
                    "no timeout: a hung agent runs forever (CI: medium)",
                    "set a timeout in seconds (timeout: 3600)"},
    [R_MISC_001] = {"NKL-MISC-001", LINT_ERROR, "error",
                    "the working directory does not exist in the sandbox: bwrap will fail",
                    "mount something at the working directory or change chdir"},
    [R_LINT_001] = {"NKL-LINT-001", LINT_WARNING, "medium",
                    "a suppression without a reason does not suppress",
                    "add the reason after '--': # nook-lint: allow ID -- why this is fine"},
    [R_LINT_002] = {"NKL-LINT-002", LINT_WARNING, "medium",
                    "a malformed suppression or an unknown rule id",
                    "write # nook-lint: allow NKL-XXX-NNN -- reason (see nookc lint "
                    "--list-rules)"},
};
const size_t lint_rule_count = R_COUNT;

int
lint_rule_find(const char *id)
{
    for (size_t r = 0; r < R_COUNT; r++)
        if (strcmp(lint_rules[r].id, id) == 0)
            return (int)r;
    return -1;
}

enum lint_severity
lint_rule_severity(size_t r, unsigned presets)
{
    if ((presets & LINT_PRESET_AGENT) && (r == R_NET_001 || r == R_NS_001 || r == R_FS_004))
        return LINT_ERROR;
    if ((presets & LINT_PRESET_CI) && r == R_LIFE_003)
        return LINT_WARNING;
    return lint_rules[r].severity;
}

const char *
lint_severity_name(enum lint_severity sev)
{
    switch (sev) {
    case LINT_INFO:
        return "info";
    case LINT_WARNING:
        return "warning";
    case LINT_ERROR:
        return "error";
    }
    return "?";
}

int
lint_severity_parse(const char *s, enum lint_severity *out)
{
    static const enum lint_severity all[] = {LINT_INFO, LINT_WARNING, LINT_ERROR};
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(s, lint_severity_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    }
    return -1;
}

/* ---- the path lists ----------------------------------------------------------------- */

static const char *const credential_rel[] = {
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".docker",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".git-credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".vault-token",
    ".terraform.d",
    ".config/op",
    ".password-store",
    ".local/share/keyrings",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
};
static const char *const credential_abs[] = {"/etc/shadow", "/etc/gshadow",
                                             "/etc/ssh/ssh_host_*_key"};

static const char *const persistence_home[] = {
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".config/fish",
    ".config/autostart",
    ".config/systemd/user",
    ".config/environment.d",
    ".local/bin",
    "bin",
    ".gitconfig",
    ".config/git",
    ".xprofile",
    ".xsessionrc",
};
static const char *const persistence_project[] = {
    ".git/hooks", ".git/config", ".gitmodules",       ".envrc",     ".env", ".vscode", ".idea",
    ".claude",    ".mcp.json",   "node_modules/.bin", "pyvenv.cfg",
};

static const char *const sockets[] = {
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/user/*/docker.sock",
    "/run/podman/podman.sock",
    "/run/user/*/podman/podman.sock",
    "/run/containerd/containerd.sock",
    "/run/crio/crio.sock",
    "/run/libvirt",
    "/run/snapd.socket",
    "/run/dbus/system_bus_socket",
    "/var/run/dbus/system_bus_socket",
    "/run/user/*/bus",
    "/run/systemd/private",
    "/run/user/*/systemd/private",
    "/run/user/*/gnupg",
    "/run/user/*/keyring",
    "/run/user/*/openssh_agent",
    "/run/user/*/ssh-agent.socket",
    "/tmp/ssh-*",
    "/tmp/.X11-unix",
    "/run/user/*/wayland-*",
    "/run/user/*/pulse",
    "/run/user/*/pipewire-*",
    "/tmp/tmux-*",
};
static const char *const broad_dirs[] = {"/run", "/var/run", "/tmp", "/run/user/*"};

static const char *const safe_devices[] = {"/dev/null",   "/dev/zero",    "/dev/full",
                                           "/dev/random", "/dev/urandom", "/dev/tty"};

static const char *const secret_names[] = {
    "*_TOKEN",    "*_SECRET*",
    "*_PASSWORD", "*_PASSWD",
    "*_API_KEY",  "*_KEY",
    "AWS_*",      "AZURE_*",
    "OP_*",       "GOOGLE_APPLICATION_CREDENTIALS",
    "KUBECONFIG", "DOCKER_AUTH_CONFIG",
};
static const char *const pointer_names[] = {
    "SSH_AUTH_SOCK",
    "GPG_AGENT_INFO",
    "DBUS_SESSION_BUS_ADDRESS",
    "DBUS_SYSTEM_BUS_ADDRESS",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "XAUTHORITY",
    "DOCKER_HOST",
    "CONTAINER_HOST",
};
static const char *const injection_names[] = {
    "LD_*",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "IFS",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "NODE_OPTIONS",
    "PERL5OPT",
    "PERL5LIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "DOTNET_STARTUP_HOOKS",
    "GOFLAGS",
};
static const char *const proxy_names[] = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                                          "FTP_PROXY"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool
name_in(const char *name, const char *const *list, size_t n, bool fold)
{
    char *up = xstrdup(name);
    if (fold)
        for (char *p = up; *p; p++)
            *p = (char)toupper((unsigned char)*p);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++)
        found = fnmatch(list[i], up, 0) == 0;
    free(up);
    return found;
}

/* ---- context and findings ----------------------------------------------------------- */

struct lctx {
    const char *file;
    const struct plan *plan;
    const struct ynode *tree;
    const struct lint_env *env;
    struct view view;
    struct lint_report *out;
    struct strv homes; /* home patterns: $HOME, /root, /home/<any> */
};

struct pos {
    unsigned line, col;
};

static struct pos
node_pos(const struct ynode *n)
{
    return (struct pos){n->line, n->col};
}

static struct pos
op_pos(const struct lctx *c, size_t i)
{
    const struct plan_op *op = &c->plan->ops[i];
    if (op->origin.line)
        return (struct pos){op->origin.line, op->origin.col};
    return node_pos(c->tree);
}

/* Where a setting is: the value of key.sub, else the value of key (sub == NULL) or the
 * key, else the document's first key. */
static struct pos
setting_pos(const struct lctx *c, const char *key, const char *sub)
{
    const struct ynode *v = ymap_get(c->tree, key);
    if (v && sub && v->type == YNODE_MAP) {
        const struct ynode *s = ymap_get(v, sub);
        if (s)
            return node_pos(s);
    }
    if (v && !sub)
        return node_pos(v);
    const struct ynode *k = ymap_key(c->tree, key);
    return node_pos(k ? k : c->tree);
}

static void add(struct lctx *c, enum rule r, struct pos at, const char *subject, char *fix,
                const char *fmt, ...) NOOK_PRINTF(6, 7);

/* Adds a finding; takes fix (NULL: the rule's usual one). */
static void
add(struct lctx *c, enum rule r, struct pos at, const char *subject, char *fix, const char *fmt,
    ...)
{
    struct lint_report *o = c->out;
    o->findings = xgrow(o->findings, &o->cap, o->n + 1, sizeof *o->findings);
    struct lint_finding *f = &o->findings[o->n++];
    memset(f, 0, sizeof *f);
    va_list ap;
    va_start(ap, fmt);
    f->message = xvasprintf(fmt, ap);
    va_end(ap);
    f->rule = r;
    f->severity = lint_rule_severity(r, c->env->presets);
    f->line = at.line;
    f->col = at.col;
    f->fix = fix ? fix : xstrdup(lint_rules[r].help);
    f->subject = xstrdup(subject);
}

/* Host paths shown by one op, for one finding per op. */
struct group {
    size_t op;
    struct strv items; /* "'HOST'" or "'HOST' at 'PATH'" */
    struct strv paths; /* sandbox paths, in step with items */
};

struct groups {
    struct group *v;
    size_t n, cap;
};

static void
group_add(struct groups *g, const struct view_hit *hit)
{
    struct group *gr = NULL;
    for (size_t k = 0; k < g->n && !gr; k++)
        if (g->v[k].op == hit->op)
            gr = &g->v[k];
    if (!gr) {
        /* keep the groups in op order */
        size_t at = g->n;
        while (at > 0 && g->v[at - 1].op > hit->op)
            at--;
        g->v = xgrow(g->v, &g->cap, g->n + 1, sizeof *g->v);
        memmove(&g->v[at + 1], &g->v[at], (g->n - at) * sizeof *g->v);
        g->n++;
        gr = &g->v[at];
        memset(gr, 0, sizeof *gr);
        gr->op = hit->op;
    }
    char *item = strcmp(hit->host, hit->path) == 0
                     ? xasprintf("'%s'", hit->host)
                     : xasprintf("'%s' at '%s'", hit->host, hit->path);
    for (size_t k = 0; k < gr->items.n; k++) {
        if (strcmp(gr->items.v[k], item) == 0) {
            free(item);
            return;
        }
    }
    strv_push_take(&gr->items, item);
    strv_push(&gr->paths, hit->path);
}

static void
groups_free(struct groups *g)
{
    for (size_t k = 0; k < g->n; k++) {
        strv_free(&g->v[k].items);
        strv_free(&g->v[k].paths);
    }
    free(g->v);
}

/* "A", "A and B", "A, B, C and 4 more". Owned. */
static char *
list_text(const struct strv *items)
{
    struct buf b = {0};
    size_t shown = items->n > 3 ? 3 : items->n;
    for (size_t k = 0; k < shown; k++) {
        if (k)
            buf_adds(&b, k + 1 == shown && items->n == shown ? " and " : ", ");
        buf_adds(&b, items->v[k]);
    }
    if (items->n > shown)
        buf_printf(&b, " and %zu more", items->n - shown);
    return b.data ? b.data : xstrdup("");
}

/* Collects the hits of a pattern. kinds: which hits count. */
enum hit_filter {
    HITS_ALL,      /* any hit */
    HITS_WRITABLE, /* writable ones */
    HITS_INSTANCE, /* the op shows a whole match, not part of one */
    HITS_WRITABLE_INSTANCE,
};

static void
collect(struct lctx *c, const char *pattern, bool literal, enum hit_filter filter,
        struct groups *g)
{
    struct view_hit *hits = NULL;
    size_t n = literal ? view_find_path(&c->view, pattern, &hits)
                       : view_find_host(&c->view, pattern, &hits);
    for (size_t k = 0; k < n; k++) {
        bool w = hits[k].writable, inst = !hits[k].inside;
        bool keep = filter == HITS_ALL || (filter == HITS_WRITABLE && w) ||
                    (filter == HITS_INSTANCE && inst) ||
                    (filter == HITS_WRITABLE_INSTANCE && w && inst);
        if (keep)
            group_add(g, &hits[k]);
    }
    view_hits_free(hits, n);
}

/* One finding per group: "<what> through this mount: LIST". */
/* fix: NULL (the rule's usual one) or {before, after} around the first sandbox path. */
static void
report_groups(struct lctx *c, enum rule r, const struct groups *g, const char *one,
              const char *many, const char *const *fix)
{
    for (size_t k = 0; k < g->n; k++) {
        const struct group *gr = &g->v[k];
        char *list = list_text(&gr->items);
        char *fx = fix ? xasprintf("%s'%s'%s", fix[0], gr->paths.v[0], fix[1]) : NULL;
        add(c, r, op_pos(c, gr->op), c->plan->ops[gr->op].dest, fx, "%s %s: %s",
            gr->items.n == 1 ? one : many, "through this mount", list);
        free(list);
    }
}

static char *
home_join(const char *home, const char *rel)
{
    return xasprintf("%s/%s", strcmp(home, "/") == 0 ? "" : home, rel);
}

/* ---- filesystem rules ---------------------------------------------------------------- */

static void
rule_root_and_homes(struct lctx *c)
{
    for (size_t i = 0; i < c->plan->n_ops; i++) {
        const char *src = c->view.source[i];
        if (src && strcmp(src, "/") == 0 && view_writes_host(&c->plan->ops[i]))
            add(c, R_FS_001, op_pos(c, i), c->plan->ops[i].dest, NULL,
                "the host's root directory is writable in the sandbox at '%s'",
                c->plan->ops[i].dest);
    }
    struct groups g = {0};
    for (size_t h = 0; h < c->homes.n; h++)
        collect(c, c->homes.v[h], false, HITS_WRITABLE_INSTANCE, &g);
    /* '/' is NKL-FS-001's */
    for (size_t k = 0; k < g.n;) {
        const char *src = c->view.source[g.v[k].op];
        if (src && strcmp(src, "/") == 0) {
            strv_free(&g.v[k].items);
            strv_free(&g.v[k].paths);
            memmove(&g.v[k], &g.v[k + 1], (g.n - k - 1) * sizeof *g.v);
            g.n--;
        } else {
            k++;
        }
    }
    report_groups(c, R_FS_002, &g, "home directory writable", "home directories writable",
                  NULL);
    groups_free(&g);
}

static void
rule_credentials(struct lctx *c)
{
    struct groups g = {0};
    for (size_t h = 0; h < c->homes.n; h++) {
        for (size_t k = 0; k < COUNT(credential_rel); k++) {
            char *p = home_join(c->homes.v[h], credential_rel[k]);
            collect(c, p, false, HITS_ALL, &g);
            free(p);
        }
    }
    for (size_t k = 0; k < COUNT(credential_abs); k++)
        collect(c, credential_abs[k], false, HITS_ALL, &g);
    static const char *const fix[] = {"hide them with a tmpfs over each (",
                                      " first), or bind only what the agent needs "
                                      "instead of an ancestor"};
    report_groups(c, R_FS_003, &g, "credential path readable", "credential paths readable",
                  fix);
    groups_free(&g);
}

static bool
is_directory_or_missing(const char *path)
{
    struct stat st;
    return stat(path, &st) < 0 || S_ISDIR(st.st_mode);
}

static void
rule_persistence(struct lctx *c)
{
    struct groups g = {0};
    for (size_t h = 0; h < c->homes.n; h++) {
        for (size_t k = 0; k < COUNT(persistence_home); k++) {
            char *p = home_join(c->homes.v[h], persistence_home[k]);
            collect(c, p, false, HITS_WRITABLE, &g);
            free(p);
        }
    }
    const struct plan *plan = c->plan;
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        const char *src = c->view.source[i] ? c->view.source[i] : op->source;
        if ((op->kind != PLAN_OP_BIND && op->kind != PLAN_OP_OVERLAY) || !src ||
            strcmp(src, "/") == 0 || !is_directory_or_missing(src))
            continue;
        for (size_t k = 0; k < COUNT(persistence_project); k++) {
            char *path = home_join(op->dest, persistence_project[k]);
            if (view_decider(plan, path, plan->n_ops) == i) {
                char *host = home_join(src, persistence_project[k]);
                struct view_hit hit = {i, path, host, true, false};
                group_add(&g, &hit);
                free(host);
            }
            free(path);
        }
    }
    for (size_t k = 0; k < g.n; k++) {
        /* The fix names the top directory of the first path below the bind: a ro-bind of
         * it onto itself is a mount point, which cannot be renamed away. */
        const struct group *gr = &g.v[k];
        const char *dest = plan->ops[gr->op].dest, *first = gr->paths.v[0];
        const char *rel = first + (strcmp(dest, "/") == 0 ? 0 : strlen(dest));
        cleanup_free char *top =
            xstrndup(first, (size_t)(rel - first) + 1 + strcspn(rel + 1, "/"));
        char *list = list_text(&gr->items);
        add(c, R_FS_004, op_pos(c, gr->op), dest,
            xasprintf("make them read-only where they are: a ro-bind of '%s' onto itself (a "
                      "mount point, so it cannot be renamed away), and so on; or review them "
                      "before using the tree on the host",
                      top),
            "%s through this mount: %s",
            gr->items.n == 1 ? "persistence path writable" : "persistence paths writable",
            list);
        free(list);
    }
    groups_free(&g);
}

/* The kinds that can hide host files as a mask. */
static bool
mask_kind(const struct plan_op *op)
{
    switch (op->kind) {
    case PLAN_OP_TMPFS:
    case PLAN_OP_RO_BIND:
    case PLAN_OP_RO_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
        return true;
    case PLAN_OP_BIND:
    case PLAN_OP_DEV_BIND:
    case PLAN_OP_PROC:
    case PLAN_OP_DEV:
    case PLAN_OP_DIR:
    case PLAN_OP_OVERLAY:
    case PLAN_OP_SYMLINK:
    case PLAN_OP_REMOUNT_RO:
        return false;
    }
    return false;
}

/* The op that op i mounts over, when that op shows host files; else VIEW_NONE. */
static size_t
under_host(const struct lctx *c, size_t i)
{
    size_t u = view_decider(c->plan, c->plan->ops[i].dest, i);
    if (u == VIEW_NONE || !view_host_backed(&c->plan->ops[u]))
        return VIEW_NONE;
    return u;
}

static bool
is_mount_point(const struct plan *plan, const char *p)
{
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        if (op->kind != PLAN_OP_DIR && op->kind != PLAN_OP_REMOUNT_RO &&
            op->kind != PLAN_OP_SYMLINK && strcmp(op->dest, p) == 0)
            return true;
    }
    return false;
}

/* Host path behind sandbox path p through bind op u (resolved source). Owned or NULL. */
static char *
host_behind(const struct lctx *c, size_t u, const char *p)
{
    const char *src = c->view.source[u];
    if (!src)
        return NULL;
    const char *dest = c->plan->ops[u].dest;
    const char *rel = strcmp(dest, "/") == 0 ? p : p + strlen(dest);
    return xasprintf("%s%s", strcmp(src, "/") == 0 ? "" : src, *rel ? rel : "");
}

static struct plan_loc
op_loc(const struct lctx *c, size_t i)
{
    return c->plan->ops[i].origin;
}

static char *
loc_text(const struct lctx *c, size_t i)
{
    struct plan_loc l = op_loc(c, i);
    return xasprintf("%u:%u", l.line, l.col);
}

static void
rule_masks(struct lctx *c)
{
    const struct plan *plan = c->plan;
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        size_t u = under_host(c, i);
        if (u == VIEW_NONE)
            continue;
        const struct plan_op *U = &plan->ops[u];

        if (op->optional)
            add(c, R_FS_013, op_pos(c, i), op->dest, NULL,
                "optional mount over '%s' guards host files: when its source '%s' is "
                "missing, bwrap skips it and what it covers shows",
                op->dest, op->source);
        if (!mask_kind(op))
            continue;

        /* FS-005: an ordinary directory between the writable bind and the mask */
        if (view_writes_host(U)) {
            cleanup_free char *p = xstrdup(op->dest);
            char *renamable = NULL;
            for (char *s = strrchr(p, '/'); s && s > p; s = strrchr(p, '/')) {
                *s = '\0';
                if (strcmp(p, U->dest) == 0 || !path_is_ancestor(U->dest, p))
                    break;
                if (!is_mount_point(plan, p)) {
                    free(renamable);
                    renamable = xstrdup(p); /* the outermost one wins */
                }
            }
            if (renamable) {
                add(c, R_FS_005, op_pos(c, i), op->dest,
                    xasprintf("mask '%s' itself (e.g. a ro-bind of it onto itself), so that "
                              "nothing but mount points lies between the writable bind and "
                              "the mask",
                              renamable),
                    "mask of '%s' can be renamed away: '%s' is an ordinary directory of the "
                    "writable mount at '%s'",
                    op->dest, renamable, U->dest);
                free(renamable);
            }
        }

        cleanup_free char *host = host_behind(c, u, op->dest);
        if (!host)
            continue;

        /* FS-006 / FS-007: what the mask's path is on the host */
        const char *src = c->view.source[u];
        struct stat st;
        bool on_symlink = false;
        if (lstat(src, &st) == 0) {
            struct buf b = {0};
            buf_adds(&b, strcmp(src, "/") == 0 ? "" : src);
            const char *rel = host + (strcmp(src, "/") == 0 ? 0 : strlen(src));
            while (*rel) {
                rel++;
                size_t n = strcspn(rel, "/");
                buf_addc(&b, '/');
                buf_add(&b, rel, n);
                rel += n;
                if (lstat(b.data, &st) < 0) {
                    add(c, R_FS_007, op_pos(c, i), op->dest, NULL,
                        "masked path '%s' does not exist on the host ('%s' is missing): "
                        "bwrap creates the mount point there, and the mask covers that one "
                        "name only",
                        op->dest, b.data);
                    break;
                }
                if (S_ISLNK(st.st_mode)) {
                    on_symlink = true;
                    if (*rel)
                        add(c, R_FS_006, op_pos(c, i), op->dest, NULL,
                            "masked path '%s' passes through the symlink '%s' on the host: "
                            "bwrap follows it, and the link stays replaceable",
                            op->dest, b.data);
                    else
                        add(c, R_FS_006, op_pos(c, i), op->dest, NULL,
                            "masked path '%s' is a symlink on the host ('%s'): bwrap mounts "
                            "on its target, and the link stays replaceable",
                            op->dest, b.data);
                    break;
                }
            }
            buf_free(&b);
        }

        /* FS-008: the hidden host path visible elsewhere (on a symlink the mask lands
         * elsewhere, which FS-006 says) */
        if (on_symlink)
            continue;
        bool in_place = op->kind == PLAN_OP_RO_BIND && c->view.source[i] &&
                        strcmp(c->view.source[i], host) == 0;
        struct view_hit *hits = NULL;
        size_t n = view_find_path(&c->view, host, &hits);
        for (size_t k = 0; k < n; k++) {
            if (hits[k].op == i || hits[k].inside || (in_place && !hits[k].writable))
                continue;
            char *where = loc_text(c, hits[k].op);
            add(c, R_FS_008, op_pos(c, i), op->dest, NULL,
                "'%s' is %s here, but %s at '%s' through the mount at %s", host,
                in_place ? "read-only" : "hidden", hits[k].writable ? "writable" : "visible",
                hits[k].path, where);
            free(where);
            break;
        }
        view_hits_free(hits, n);
    }
}

static void
rule_bind_sources(struct lctx *c)
{
    const struct plan *plan = c->plan;
    for (size_t i = 0; i < plan->n_ops; i++) {
        const char *src = c->view.source[i];
        if (!src)
            continue;
        struct view_hit *hits = NULL;
        size_t n = view_find_path(&c->view, src, &hits);
        for (size_t k = 0; k < n; k++) {
            if (hits[k].op == i || !hits[k].writable || hits[k].inside)
                continue;
            char *where = loc_text(c, hits[k].op);
            add(c, R_FS_010, op_pos(c, i), plan->ops[i].dest, NULL,
                "source '%s' of this mount is writable in the sandbox at '%s' (the mount at "
                "%s): the agent controls what a later run mounts at '%s'",
                src, hits[k].path, where, plan->ops[i].dest);
            free(where);
            break;
        }
        view_hits_free(hits, n);
    }
}

static void
rule_devices_proc_sys(struct lctx *c)
{
    const struct plan *plan = c->plan;
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        if (op->kind == PLAN_OP_PROC && !(plan->namespaces & PLAN_NS_PID))
            add(c, R_PROC_001, op_pos(c, i), op->dest, NULL,
                "proc at '%s' without a pid namespace shows every host process and its "
                "command line",
                op->dest);
        if (op->kind != PLAN_OP_DEV_BIND)
            continue;
        const char *src = c->view.source[i];
        if (strcmp(src, "/") == 0 || strcmp(src, "/dev") == 0) {
            add(c, R_DEV_001, op_pos(c, i), op->dest, NULL,
                "dev-bind of '%s' makes every host device usable at '%s' (disks, /dev/kvm, "
                "/dev/mem)",
                src, op->dest);
            continue;
        }
        bool safe = false;
        for (size_t k = 0; k < COUNT(safe_devices) && !safe; k++)
            safe = strcmp(src, safe_devices[k]) == 0;
        if (!safe)
            add(c, R_DEV_002, op_pos(c, i), op->dest, NULL,
                "dev-bind of '%s' makes its device nodes usable in the sandbox", src);
    }
    struct groups g = {0};
    collect(c, "/proc", false, HITS_ALL, &g);
    report_groups(c, R_PROC_002, &g, "host /proc visible", "host /proc visible", NULL);
    groups_free(&g);
    memset(&g, 0, sizeof g);
    collect(c, "/sys", false, HITS_ALL, &g);
    report_groups(c, R_SYS_001, &g, "host /sys visible", "host /sys visible", NULL);
    groups_free(&g);
}

static void
rule_sockets(struct lctx *c)
{
    struct groups g = {0};
    for (size_t k = 0; k < COUNT(sockets); k++)
        collect(c, sockets[k], false, HITS_ALL, &g);
    char *sock = NULL;
    const char *why;
    if (c->env->ssh_auth_sock && path_normalize(c->env->ssh_auth_sock, &sock, &why) == 0)
        collect(c, sock, true, HITS_ALL, &g);
    free(sock);
    static const char *const fix1[] = {"hide it with a tmpfs over its directory (for ",
                                       "), or do not bind it"};
    report_groups(c, R_SOCK_001, &g, "control socket reachable", "control sockets reachable",
                  fix1);
    groups_free(&g);
    memset(&g, 0, sizeof g);
    for (size_t k = 0; k < COUNT(broad_dirs); k++)
        collect(c, broad_dirs[k], false, HITS_INSTANCE, &g);
    static const char *const fix2[] = {"hide it with a tmpfs at ",
                                       " and bind only what the agent needs"};
    report_groups(c, R_SOCK_002, &g, "runtime directory visible", "runtime directories visible",
                  fix2);
    groups_free(&g);
}

static void
rule_tmpfs_size(struct lctx *c)
{
    for (size_t i = 0; i < c->plan->n_ops; i++) {
        const struct plan_op *op = &c->plan->ops[i];
        if (op->kind == PLAN_OP_TMPFS && !op->size && !view_room_made(c->plan, i))
            add(c, R_FS_012, op_pos(c, i), op->dest, NULL,
                "tmpfs at '%s' has no size: writing to it can fill the host's memory",
                op->dest);
    }
}

/* ---- process settings ----------------------------------------------------------------- */

static void
rule_namespaces(struct lctx *c)
{
    unsigned ns = c->plan->namespaces;
    if (!(ns & PLAN_NS_NET))
        add(c, R_NET_001, setting_pos(c, "unshare", "network"), "network", NULL,
            "the network is shared with the host: the sandbox reaches the internet, local "
            "services and host abstract sockets");
    if (!(ns & PLAN_NS_PID))
        add(c, R_NS_001, setting_pos(c, "unshare", "pid"), "pid", NULL,
            "no pid namespace: the sandbox sees host processes and a timeout cannot end "
            "every process it started");
    static const struct {
        unsigned bit;
        const char *name;
    } others[] = {{PLAN_NS_IPC, "ipc"}, {PLAN_NS_UTS, "uts"}, {PLAN_NS_CGROUP, "cgroup"}};
    struct strv missing = {0};
    struct pos at = {0, 0};
    for (size_t k = 0; k < COUNT(others); k++) {
        if (ns & others[k].bit)
            continue;
        char *q = xasprintf("'%s'", others[k].name);
        strv_push_take(&missing, q);
        if (!at.line)
            at = setting_pos(c, "unshare", others[k].name);
    }
    if (missing.n) {
        char *list = list_text(&missing);
        add(c, R_NS_002, at, "ipc-uts-cgroup", NULL, "namespace%s %s shared with the host",
            missing.n == 1 ? "" : "s", list);
        free(list);
    }
    strv_free(&missing);
}

static void
rule_process(struct lctx *c)
{
    const struct plan *plan = c->plan;
    if (!plan->new_session)
        add(c, R_TTY_001, setting_pos(c, "new_session", NULL), "new_session", NULL,
            "new_session is false: the sandbox shares the terminal's session and can inject "
            "keystrokes with TIOCSTI (CVE-2017-5226)");
    if (!plan->die_with_parent)
        add(c, R_LIFE_001, setting_pos(c, "die_with_parent", NULL), "die_with_parent", NULL,
            "die_with_parent is false: the sandbox keeps running when its caller dies");
    if (!plan->timeout_ms)
        add(c, R_LIFE_003, node_pos(c->tree), "timeout", NULL,
            "no timeout: a hung agent runs until someone stops it");
    const struct ynode *keep = NULL, *caps = ymap_get(c->tree, "capabilities");
    if (caps && caps->type == YNODE_MAP)
        keep = ymap_get(caps, "keep");
    for (size_t k = 0; k < plan->cap_add.n; k++) {
        const char *cap = plan->cap_add.v[k];
        struct pos at = setting_pos(c, "capabilities", "keep");
        for (size_t e = 0; keep && keep->type == YNODE_SEQ && e < keep->n; e++) {
            char *canon = NULL;
            const char *why;
            if (parse_cap(keep->vals[e]->value, &canon, &why) == 0 && strcmp(canon, cap) == 0)
                at = node_pos(keep->vals[e]);
            free(canon);
        }
        if (strcmp(cap, "ALL") == 0)
            add(c, R_CAP_002, at, cap, NULL,
                "every capability is kept in the sandbox (keep: [ALL]): masks can be "
                "unmounted and the kernel surface is wide open");
        else
            add(c, R_CAP_002, at, cap, NULL, "capability '%s' is kept in the sandbox", cap);
    }
}

/* The names a value passes on with ${NAME} or ${NAME:-default}. */
static void
referenced_names(const char *value, struct strv *out)
{
    for (const char *p = strstr(value, "${"); p; p = strstr(p, "${")) {
        p += 2;
        size_t n = strcspn(p, "}:");
        if (n)
            strv_push_take(out, xstrndup(p, n));
    }
}

static void
rule_environment(struct lctx *c)
{
    const struct plan *plan = c->plan;
    if (!plan->clearenv) {
        const struct ynode *u = ymap_get(c->tree, "unset_vars");
        add(c, R_ENV_003, u ? node_pos(u) : node_pos(c->tree), "environment", NULL,
            "the environment is inherited: every variable of the caller (tokens, "
            "SSH_AUTH_SOCK, ...) reaches the sandbox%s",
            plan->unsetenv.n ? " except the few unset by name" : "");
    }
    const struct ynode *env = ymap_get(c->tree, "env_vars");
    if (!env || env->type != YNODE_MAP)
        return;
    bool shared_net = !(plan->namespaces & PLAN_NS_NET);
    for (size_t k = 0; k < env->n; k++) {
        const char *name = env->keys[k]->value;
        const char *raw = env->vals[k]->value ? env->vals[k]->value : "";
        struct pos at = node_pos(env->keys[k]);
        if (name_in(name, secret_names, COUNT(secret_names), true)) {
            add(c, R_ENV_001, at, name, NULL,
                "secret-shaped variable '%s' is set in the sandbox", name);
        } else {
            struct strv refs = {0};
            referenced_names(raw, &refs);
            for (size_t r = 0; r < refs.n; r++) {
                if (name_in(refs.v[r], secret_names, COUNT(secret_names), true)) {
                    add(c, R_ENV_001, at, name, NULL,
                        "variable '%s' passes the secret-shaped '%s' into the sandbox", name,
                        refs.v[r]);
                    break;
                }
            }
            strv_free(&refs);
        }
        if (name_in(name, pointer_names, COUNT(pointer_names), false))
            add(c, R_ENV_002, at, name, NULL,
                "'%s' is set in the sandbox: it points at a host agent, bus or display", name);
        if (name_in(name, injection_names, COUNT(injection_names), false))
            add(c, R_ENV_004, at, name, NULL,
                "'%s' is set in the sandbox: it changes what programs load or run", name);
        if (shared_net && name_in(name, proxy_names, COUNT(proxy_names), true))
            add(c, R_NET_002, at, name, NULL,
                "'%s' does not restrict the network: the network is shared, and a program "
                "can ignore the proxy",
                name);
    }
}

/* ---- the profile itself and the working directory ---------------------------------- */

static void
rule_profile_writable(struct lctx *c)
{
    char *real = realpath(c->file, NULL);
    if (!real)
        return;
    char *dir = xstrdup(real);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    struct groups g = {0};
    collect(c, real, true, HITS_WRITABLE_INSTANCE, &g);
    collect(c, dir, true, HITS_WRITABLE_INSTANCE, &g);
    for (size_t k = 0; k < g.n; k++) {
        add(c, R_EXEC_003, op_pos(c, g.v[k].op), c->plan->ops[g.v[k].op].dest, NULL,
            "profile '%s' is writable in the sandbox (%s): the agent can rewrite its next "
            "policy",
            c->file, g.v[k].items.v[0]);
    }
    groups_free(&g);
    free(dir);
    free(real);
}

static void
rule_chdir(struct lctx *c)
{
    const struct plan *plan = c->plan;
    const char *d = plan->chdir;
    if (!d)
        return;
    size_t i = view_decider(plan, d, plan->n_ops);
    struct pos at = setting_pos(c, "chdir", NULL);
    for (size_t k = 0; k < plan->n_ops; k++)
        if (strcmp(plan->ops[k].dest, d) == 0 || path_is_ancestor(d, plan->ops[k].dest))
            return; /* bwrap makes the directories of mount points */
    if (i == VIEW_NONE || plan->ops[i].kind == PLAN_OP_TMPFS) {
        add(c, R_MISC_001, at, d, NULL,
            "working directory '%s' does not exist in the sandbox: it lies on %s and nothing "
            "is mounted at or below it",
            d, i == VIEW_NONE ? "bwrap's empty root" : "a tmpfs");
        return;
    }
    const char *src = c->view.source[i];
    struct stat st;
    if (!src || lstat(src, &st) < 0)
        return;
    char *host = host_behind(c, i, d);
    if (host && stat(host, &st) < 0)
        add(c, R_MISC_001, at, d, NULL,
            "working directory '%s' does not exist in the sandbox: '%s' is missing on the "
            "host",
            d, host);
    free(host);
}

/* ---- suppressions -------------------------------------------------------------------- */

struct supp {
    unsigned line, col; /* where the comment is */
    unsigned target;    /* the line it applies to */
    struct strv ids;    /* known rule ids */
    bool reason;
    char *text; /* owned: the reason */
};

/* The byte offset where a comment starts on line `line` (s, len bytes), or -1; *colp
 * gets its column (in characters, as libyaml counts). As YAML has it: a '#' at the
 * start of the line or after a space or tab, and not inside a scalar. The parsed tree
 * says where its scalars are, so a '#' in a quoted string, a block scalar or a folded
 * one is text and cannot pose as a suppression. */
static long
comment_start(const struct ynode *tree, unsigned line, const char *s, size_t len,
              unsigned *colp)
{
    unsigned col = 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t') &&
            !ynode_in_scalar(tree, line, col)) {
            *colp = col;
            return (long)i;
        }
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            col++;
    }
    return -1;
}

static bool
blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* Parses "# nook-lint: allow ID[, ID...] [-- reason]" at s (the '#'); returns false
 * when it is not a nook-lint comment at all. *bad names what is malformed. */
static bool
parse_directive(struct lctx *c, const char *s, size_t len, unsigned line, unsigned col,
                struct supp *out)
{
    char *t = xstrndup(s + 1, len - 1);
    char *p = t + strspn(t, " \t");
    bool is = strncmp(p, "nook-lint:", 10) == 0;
    if (!is) {
        free(t);
        return false;
    }
    p += 10;
    p += strspn(p, " \t");
    memset(out, 0, sizeof *out);
    out->line = line;
    out->col = col;
    struct pos at = {line, col};
    if (strncmp(p, "allow", 5) != 0 || (p[5] && !strchr(" \t", p[5]))) {
        add(c, R_LINT_002, at, "suppression", NULL,
            "malformed suppression: expected '# nook-lint: allow NKL-... -- reason'");
        free(t);
        return true;
    }
    p += 5;
    char *dash = strstr(p, "--");
    if (dash) {
        *dash = '\0';
        char *r = dash + 2;
        r += strspn(r, " \t");
        size_t n = strlen(r);
        while (n && strchr(" \t\r", r[n - 1]))
            r[--n] = '\0';
        out->reason = n > 0;
        out->text = xstrdup(r);
    }
    size_t count = 0;
    for (char *tok = strtok(p, " \t,\r"); tok; tok = strtok(NULL, " \t,\r")) {
        count++;
        int r = lint_rule_find(tok);
        if (r < 0 || r == R_LINT_001 || r == R_LINT_002)
            add(c, R_LINT_002, at, tok, NULL, "unknown rule '%s' in suppression", tok);
        else
            strv_push(&out->ids, tok);
    }
    if (!count)
        add(c, R_LINT_002, at, "suppression", NULL,
            "malformed suppression: no rule id after 'allow'");
    else if (!out->reason)
        add(c, R_LINT_001, at, "suppression", NULL,
            "suppression without a reason does not apply: write '-- why' after the rule "
            "id");
    free(t);
    return true;
}

static void
collect_suppressions(struct lctx *c, const char *text, size_t len, struct supp **out,
                     size_t *n_out)
{
    struct supp *v = NULL;
    size_t n = 0, cap = 0;
    /* comment-only lines waiting for the line they apply to */
    size_t pending_from = 0;
    unsigned line = 1;
    for (size_t off = 0; off <= len;) {
        /* Lines as libyaml breaks them, so line numbers agree with the findings'. */
        const char *s = text + off;
        size_t l = 0, br = 0;
        while (off + l < len && !(br = yaml_line_break(s + l, len - off - l)))
            l++;
        unsigned col = 0;
        long cs = comment_start(c->tree, line, s, l, &col);
        bool comment_only = cs >= 0 && blank(s, (size_t)cs);
        if (!comment_only) {
            /* this line is the target of the comment-only lines above it */
            for (size_t k = pending_from; k < n; k++)
                if (!v[k].target)
                    v[k].target = blank(s, l) ? 0 : line;
            pending_from = n;
        }
        if (cs >= 0) {
            struct supp sp;
            if (parse_directive(c, s + cs, l - (size_t)cs, line, col, &sp)) {
                sp.target = comment_only ? 0 : line;
                v = xgrow(v, &cap, n + 1, sizeof *v);
                v[n++] = sp;
                if (!comment_only)
                    pending_from = n;
            }
        }
        if (!br)
            break;
        off += l + br;
        line++;
    }
    *out = v;
    *n_out = n;
}

/* The line of the mount entry a finding at `at` belongs to, or 0. */
static unsigned
entry_line(const struct lctx *c, struct pos at)
{
    const struct ynode *mounts = ymap_get(c->tree, "mounts");
    if (!mounts || mounts->type != YNODE_SEQ)
        return 0;
    for (size_t k = 0; k < mounts->n; k++) {
        const struct ynode *e = mounts->vals[k];
        const struct ynode *t = e->type == YNODE_MAP ? ymap_get(e, "target") : NULL;
        if ((e->line == at.line && e->col == at.col) ||
            (t && t->line == at.line && t->col == at.col))
            return e->line;
    }
    return 0;
}

static void
apply_suppressions(struct lctx *c, const char *text, size_t len)
{
    struct supp *v = NULL;
    size_t n = 0;
    collect_suppressions(c, text, len, &v, &n);
    struct lint_report *o = c->out;
    for (size_t f = 0; f < o->n; f++) {
        struct lint_finding *fd = &o->findings[f];
        if (fd->rule == R_LINT_001 || fd->rule == R_LINT_002)
            continue;
        unsigned entry = entry_line(c, (struct pos){fd->line, fd->col});
        for (size_t k = 0; k < n && !fd->justification; k++) {
            if (!v[k].reason || !v[k].target ||
                (v[k].target != fd->line && v[k].target != entry))
                continue;
            for (size_t i = 0; i < v[k].ids.n; i++)
                if (strcmp(v[k].ids.v[i], lint_rules[fd->rule].id) == 0)
                    fd->justification = xstrdup(v[k].text);
        }
    }
    for (size_t k = 0; k < n; k++) {
        strv_free(&v[k].ids);
        free(v[k].text);
    }
    free(v);
}

/* ---- driver ----------------------------------------------------------------------------- */

static int
finding_cmp(const void *pa, const void *pb)
{
    const struct lint_finding *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    if (a->rule != b->rule)
        return a->rule < b->rule ? -1 : 1;
    return strcmp(a->message, b->message);
}

void
lint_run(const char *file, const char *text, size_t len, const struct plan *plan,
         const struct ynode *tree, const struct lint_env *env, struct lint_report *out)
{
    memset(out, 0, sizeof *out);
    out->file = xstrdup(file);
    struct lctx c = {file, plan, tree, env, {0}, out, {0}};
    view_init(&c.view, plan);
    char *home = NULL;
    const char *why;
    if (env->home && path_normalize(env->home, &home, &why) == 0 && strcmp(home, "/") != 0)
        strv_push(&c.homes, home);
    if (!home || strcmp(home, "/root") != 0)
        strv_push(&c.homes, "/root");
    strv_push(&c.homes, "/home/*");
    free(home);

    rule_root_and_homes(&c);
    rule_credentials(&c);
    rule_persistence(&c);
    rule_masks(&c);
    rule_bind_sources(&c);
    rule_devices_proc_sys(&c);
    rule_sockets(&c);
    rule_tmpfs_size(&c);
    rule_namespaces(&c);
    rule_process(&c);
    rule_environment(&c);
    rule_profile_writable(&c);
    rule_chdir(&c);
    apply_suppressions(&c, text, len);

    if (out->n)
        qsort(out->findings, out->n, sizeof *out->findings, finding_cmp);
    strv_free(&c.homes);
    view_free(&c.view);
}

void
lint_report_free(struct lint_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->findings[i].message);
        free(r->findings[i].fix);
        free(r->findings[i].subject);
        free(r->findings[i].justification);
    }
    free(r->findings);
    free(r->file);
    memset(r, 0, sizeof *r);
}

static uint64_t
fnv1a(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    h ^= 0xff; /* separator */
    h *= 0x100000001b3ULL;
    return h;
}

char *
lint_fingerprint(const struct lint_report *r, size_t f)
{
    const struct lint_finding *fd = &r->findings[f];
    unsigned nth = 0;
    for (size_t k = 0; k < f; k++)
        if (r->findings[k].rule == fd->rule && strcmp(r->findings[k].subject, fd->subject) == 0)
            nth++;
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, lint_rules[fd->rule].id);
    h = fnv1a(h, fd->subject);
    char n[16];
    snprintf(n, sizeof n, "%u", nth);
    h = fnv1a(h, n);
    return xasprintf("%016llx", (unsigned long long)h);
}
