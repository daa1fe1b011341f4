/* agent-nook.c - the everyday CLI: run, logs, status.
 *
 * `run` compiles the user's profile in memory with the same front end, passes and
 * checks as nookc (compile.h), applies the command-line overrides between lowering and
 * the conflict checks, and runs the plan with the same code as nook-exec (launch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../runtime/launch.h"
#include "../runtime/names.h"
#include "../runtime/probe.h"
#include "../runtime/run.h"
#include "compile.h"
#include "logconf.h"
#include "parse.h"

#ifndef NOOK_PROFILE_DIR
#define NOOK_PROFILE_DIR "/usr/local/share/agent-nook/profiles"
#endif

extern const char nook_default_profile[]; /* profiles/default.yaml, built in */

#define EXIT_USAGE 2

static const char main_usage[] =
    "Usage: agent-nook [--version] [-h] [-v] [-q] COMMAND [ARGS...]\n"
    "Run programs (AI agents above all) in a bubblewrap sandbox described by a profile.\n"
    "\n"
    "Commands:\n"
    "  run [OPTIONS] [--command STRING | CMD ARGS...]   run a command in the sandbox\n"
    "  logs [-n N] [-f|-F|--follow]                       show the log\n"
    "  status                                           can a sandbox start here, and why not\n"
    "  help [COMMAND]                                   show help\n"
    "\n"
    "  -v, --verbose   show the bwrap command and timings (run)\n"
    "  -q, --quiet     print nothing but errors\n"
    "  --version       show the version\n"
    "\n"
    "The profile is ~/.config/agent-nook/sandbox.yaml, written from the built-in default\n"
    "on first use. See 'agent-nook help run'.\n";

static const char run_usage[] =
    "Usage: agent-nook run [OPTIONS] [--command STRING | CMD ARGS...]\n"
    "Options end at the first word that is not an option, or at '--'.\n"
    "\n"
    "Profile:\n"
    "  --config PATH            the profile (default "
    "$XDG_CONFIG_HOME/agent-nook/sandbox.yaml)\n"
    "  --profile NAME           ~/.config/agent-nook/profiles/NAME.yaml or a shipped profile\n"
    "Mounts (a target equal to a profile mount's target replaces it):\n"
    "  --bind SRC[:DEST]        read-write bind (DEST defaults to SRC)\n"
    "  --ro-bind SRC[:DEST]     read-only bind\n"
    "  --dev-bind SRC[:DEST]    bind with device access\n"
    "  --tmpfs DEST[:SIZE]      tmpfs, SIZE like 100M\n"
    "  --proc DEST, --dev DEST, --dir DEST\n"
    "Capabilities and namespaces:\n"
    "  --cap-add CAP, --cap-drop CAP     names with or without CAP_, or ALL\n"
    "  --unshare NS...          pid, uts, ipc, cgroup, user, net: comma- or space-separated\n"
    "  --unshare-pid|-uts|-ipc|-cgroup|-user|-net, --unshare-all, --share-net\n"
    "Process:\n"
    "  --env KEY=VALUE          set a variable        --unset-env KEY   unset one (ALL: all)\n"
    "  --hostname NAME          --chdir DIR           --timeout SECONDS\n"
    "  --new-session, --no-new-session, --die-with-parent, --no-die-with-parent\n"
    "Output:\n"
    "  --dry-run                print the bwrap command and the profile, run nothing\n"
    "  -q, --quiet              print nothing but errors\n"
    "  -v, --verbose            also the bwrap command and timings on stderr\n"
    "  --command STRING         run STRING with /bin/sh -c\n"
    "\n"
    "Exit status: the command's; 128+N killed by signal N; 124 timeout; 125 agent-nook\n"
    "or the sandbox failed (a profile error prints FILE:LINE:COL lines); 126 command not\n"
    "executable; 127 command not found; 2 usage error.\n";

static const char logs_usage[] =
    "Usage: agent-nook logs [-n N | --tail N] [-f | -F | --follow]\n"
    "Print the last N lines (default 50) of the log; with -f keep printing new lines,\n"
    "across rotation and truncation, until Ctrl-C (exit 130).\n";

static const char status_usage[] =
    "Usage: agent-nook status\n"
    "Say whether a sandbox can start here and why not: bwrap, its options, user\n"
    "namespaces, the profile and the log. Exit 0 only when a sandbox can start.\n";

#define usage_error(...) cli_error(EXIT_USAGE, "agent-nook", "agent-nook help", __VA_ARGS__)
#define tool_error(...) cli_error(RUN_EXIT_FAILURE, "agent-nook", NULL, __VA_ARGS__)

struct globals {
    bool verbose, quiet;
};

/* ---- run: command line -------------------------------------------------------- */

struct cli_mount {
    enum plan_op_kind kind;
    char *source; /* owned, canonical, or NULL */
    char *dest;   /* owned, canonical */
    uint64_t size;
    char *origin; /* owned: the option as given ("--bind /a:/b"), for messages */
};

struct run_args {
    const char *config, *profile;
    struct cli_mount *mounts;
    size_t n_mounts, cap_mounts;
    struct strv caps;      /* "+CAP_X" / "-CAP_X" in command-line order */
    int ns[PLAN_NS_COUNT]; /* -1 as the profile says, 0 shared, 1 unshared */
    struct strv env;       /* "=NAME=VALUE" / "-NAME" in command-line order */
    char *hostname, *chdir;
    uint64_t timeout_ms;
    int new_session, die_with_parent; /* -1 as the profile says */
    bool dry_run;
    const char *command_string;
    char **cmd;
    int ncmd;
    char *cwd;  /* owned */
    char *home; /* owned: $HOME, canonical, or NULL */
};

static void
run_args_free(struct run_args *ra)
{
    for (size_t i = 0; i < ra->n_mounts; i++) {
        free(ra->mounts[i].source);
        free(ra->mounts[i].dest);
        free(ra->mounts[i].origin);
    }
    free(ra->mounts);
    strv_free(&ra->caps);
    strv_free(&ra->env);
    free(ra->hostname);
    free(ra->chdir);
    free(ra->cwd);
    free(ra->home);
}

/* Expands ${VAR} and ~ in a command-line value, as in a profile. */
static char *
expand_arg(const char *flag, const char *value)
{
    char *err = NULL;
    char *r = expand_vars(value, &err);
    if (!r) {
        usage_error("%s '%s': %s", flag, value, err);
        free(err);
    }
    return r;
}

/* A canonical absolute path from a command-line value; a relative source is taken
 * from the current directory (a target must be absolute). */
static char *
cli_path(const struct run_args *ra, const char *flag, const char *value, bool source)
{
    char *e = expand_arg(flag, value);
    if (!e)
        return NULL;
    char *abs = e[0] == '/' || !source ? xstrdup(e) : xasprintf("%s/%s", ra->cwd, e);
    char *norm = NULL;
    const char *why;
    if (path_normalize(abs, &norm, &why) < 0)
        usage_error("%s '%s': %s", flag, value, why);
    free(abs);
    free(e);
    return norm;
}

static int
add_mount(struct run_args *ra, const char *flag, const char *value, enum plan_op_kind kind)
{
    const char *colon = strchr(value, ':');
    bool bind = kind == PLAN_OP_BIND || kind == PLAN_OP_RO_BIND || kind == PLAN_OP_DEV_BIND;
    if (colon && (strchr(colon + 1, ':') || !(bind || kind == PLAN_OP_TMPFS)))
        return usage_error("%s '%s': too many ':' (a path containing ':' can only be given "
                           "in the profile file, as a mounts entry)",
                           flag, value);
    struct cli_mount m = {.kind = kind};
    char *first = colon ? xstrndup(value, (size_t)(colon - value)) : xstrdup(value);
    int rc = 0;
    if (bind) {
        m.source = cli_path(ra, flag, first, true);
        m.dest = colon ? cli_path(ra, flag, colon + 1, false)
                       : (m.source ? xstrdup(m.source) : NULL);
        rc = m.source && m.dest ? 0 : EXIT_USAGE;
    } else {
        m.dest = cli_path(ra, flag, first, false);
        rc = m.dest ? 0 : EXIT_USAGE;
        const char *why;
        if (!rc && colon && parse_size(colon + 1, &m.size, &why) < 0)
            rc = usage_error("%s '%s': invalid size '%s': %s", flag, value, colon + 1, why);
    }
    free(first);
    if (rc) {
        free(m.source);
        free(m.dest);
        return rc;
    }
    m.origin = xasprintf("%s %s", flag, value);
    ra->mounts = xgrow(ra->mounts, &ra->cap_mounts, ra->n_mounts + 1, sizeof *ra->mounts);
    ra->mounts[ra->n_mounts++] = m;
    return 0;
}

static int
ns_index(const char *name, size_t len)
{
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        if (strlen(plan_ns_names[i]) == len && strncmp(plan_ns_names[i], name, len) == 0)
            return i;
    if (len == 3 && strncmp(name, "net", 3) == 0)
        return 5;
    return -1;
}

/* True when every comma-separated word of s names a namespace. */
static bool
is_ns_list(const char *s)
{
    if (!*s)
        return false;
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0 && ns_index(p, n) < 0)
            return false;
        p += n;
        if (*p)
            p++;
    }
    return true;
}

static void
set_ns_list(struct run_args *ra, const char *s)
{
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0)
            ra->ns[ns_index(p, n)] = 1;
        p += n;
        if (*p)
            p++;
    }
}

/* If argv[*i] is `flag` (with its value next, or after '='), stores the value. */
static bool
take_value(int argc, char **argv, int *i, const char *flag, const char **value, int *rc)
{
    size_t n = strlen(flag);
    if (strncmp(argv[*i], flag, n) != 0)
        return false;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return true;
    }
    if (argv[*i][n] != '\0')
        return false;
    if (*i + 1 >= argc) {
        *rc = usage_error("option '%s' needs a value", flag);
        return true;
    }
    *value = argv[++*i];
    return true;
}

static int
parse_run(int argc, char **argv, struct run_args *ra, struct globals *g)
{
    for (int k = 0; k < PLAN_NS_COUNT; k++)
        ra->ns[k] = -1;
    ra->new_session = ra->die_with_parent = -1;
    static const struct {
        const char *flag;
        enum plan_op_kind kind;
    } mount_flags[] = {
        {"--bind", PLAN_OP_BIND},         {"--ro-bind", PLAN_OP_RO_BIND},
        {"--dev-bind", PLAN_OP_DEV_BIND}, {"--tmpfs", PLAN_OP_TMPFS},
        {"--proc", PLAN_OP_PROC},         {"--dev", PLAN_OP_DEV},
        {"--dir", PLAN_OP_DIR},
    };
    static const char *const ns_flags[PLAN_NS_COUNT] = {"--unshare-pid",  "--unshare-uts",
                                                        "--unshare-ipc",  "--unshare-cgroup",
                                                        "--unshare-user", "--unshare-net"};
    int i = 0;
    while (i < argc) {
        const char *a = argv[i];
        const char *v = NULL;
        int rc = 0;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        bool done = false;
        for (size_t m = 0; m < sizeof mount_flags / sizeof mount_flags[0] && !done; m++) {
            if (take_value(argc, argv, &i, mount_flags[m].flag, &v, &rc)) {
                done = true;
                if (!rc)
                    rc = add_mount(ra, mount_flags[m].flag, v, mount_flags[m].kind);
            }
        }
        for (int k = 0; k < PLAN_NS_COUNT && !done; k++) {
            if (strcmp(a, ns_flags[k]) == 0) {
                ra->ns[k] = 1;
                done = true;
            }
        }
        if (done) {
            /* handled above */
        } else if (take_value(argc, argv, &i, "--config", &v, &rc)) {
            ra->config = v;
        } else if (take_value(argc, argv, &i, "--profile", &v, &rc)) {
            ra->profile = v;
        } else if (take_value(argc, argv, &i, "--cap-add", &v, &rc) ||
                   take_value(argc, argv, &i, "--cap-drop", &v, &rc)) {
            char *cap = NULL;
            const char *why;
            if (!rc && parse_cap(v, &cap, &why) < 0)
                rc = usage_error("%s '%s': %s", a, v, why);
            else if (!rc)
                strv_push_take(
                    &ra->caps,
                    xasprintf("%c%s", strncmp(a, "--cap-add", 9) == 0 ? '+' : '-', cap));
            free(cap);
        } else if (strcmp(a, "--unshare") == 0 || strncmp(a, "--unshare=", 10) == 0) {
            /* Comma-separated, and the original README's space-separated form: words
             * are taken while they are namespace names. */
            const char *first = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!first || !is_ns_list(first))
                rc = usage_error("--unshare needs namespace names (pid, uts, ipc, cgroup, "
                                 "user, net), got '%s'",
                                 first ? first : "");
            else
                set_ns_list(ra, first);
            while (!rc && i + 1 < argc && is_ns_list(argv[i + 1]))
                set_ns_list(ra, argv[++i]);
        } else if (strcmp(a, "--unshare-all") == 0) {
            for (int k = 0; k < PLAN_NS_COUNT; k++)
                ra->ns[k] = 1;
        } else if (strcmp(a, "--share-net") == 0) {
            ra->ns[5] = 0;
        } else if (take_value(argc, argv, &i, "--env", &v, &rc)) {
            const char *eq = rc ? NULL : strchr(v, '=');
            const char *why;
            if (!rc && !eq)
                rc = usage_error("--env '%s': expected KEY=VALUE", v);
            char *name = eq ? xstrndup(v, (size_t)(eq - v)) : NULL;
            if (!rc && check_env_name(name, strlen(name), &why) < 0)
                rc = usage_error("--env '%s': %s", v, why);
            char *val = rc ? NULL : expand_arg("--env", eq + 1);
            if (!rc && !val)
                rc = EXIT_USAGE;
            if (!rc)
                strv_push_take(&ra->env, xasprintf("=%s=%s", name, val));
            free(name);
            free(val);
        } else if (take_value(argc, argv, &i, "--unset-env", &v, &rc)) {
            const char *why;
            if (!rc && check_env_name(v, strlen(v), &why) < 0)
                rc = usage_error("--unset-env '%s': %s", v, why);
            else if (!rc)
                strv_push_take(&ra->env, xasprintf("-%s", v));
        } else if (take_value(argc, argv, &i, "--hostname", &v, &rc)) {
            const char *why;
            if (!rc && check_hostname(v, &why) < 0)
                rc = usage_error("--hostname '%s': %s", v, why);
            else if (!rc) {
                free(ra->hostname);
                ra->hostname = xstrdup(v);
            }
        } else if (take_value(argc, argv, &i, "--chdir", &v, &rc)) {
            if (!rc) {
                free(ra->chdir);
                ra->chdir = cli_path(ra, "--chdir", v, false);
                rc = ra->chdir ? 0 : EXIT_USAGE;
            }
        } else if (take_value(argc, argv, &i, "--timeout", &v, &rc)) {
            const char *why;
            if (!rc && parse_timeout(v, &ra->timeout_ms, &why) < 0)
                rc = usage_error("--timeout '%s': %s", v, why);
        } else if (take_value(argc, argv, &i, "--command", &v, &rc)) {
            ra->command_string = v;
        } else if (strcmp(a, "--new-session") == 0 || strcmp(a, "--no-new-session") == 0) {
            ra->new_session = a[2] != 'n' || a[3] != 'o';
        } else if (strcmp(a, "--die-with-parent") == 0 ||
                   strcmp(a, "--no-die-with-parent") == 0) {
            ra->die_with_parent = strcmp(a, "--die-with-parent") == 0;
        } else if (strcmp(a, "--dry-run") == 0) {
            ra->dry_run = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            g->quiet = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            g->verbose = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(run_usage, stdout);
            return -1;
        } else {
            rc = usage_error("unknown run option '%s'", a);
        }
        if (rc)
            return rc;
        i++;
    }
    ra->cmd = argv + i;
    ra->ncmd = argc - i;
    if (ra->config && ra->profile)
        return usage_error("--config and --profile cannot be used together");
    if (ra->command_string && ra->ncmd > 0)
        return usage_error("give either --command STRING or a command, not both");
    if (!ra->command_string && ra->ncmd == 0)
        return usage_error("no command given (agent-nook run [OPTIONS] COMMAND [ARGS...], or "
                           "--command STRING)");
    return 0;
}

/* ---- run: applying the overrides to the plan ---------------------------------- */

static void
remove_op(struct plan *plan, size_t i)
{
    plan_op_free(&plan->ops[i]);
    memmove(&plan->ops[i], &plan->ops[i + 1], (plan->n_ops - i - 1) * sizeof *plan->ops);
    plan->n_ops--;
}

static void
strv_remove(struct strv *sv, const char *s, struct strv *parallel)
{
    for (size_t i = 0; i < sv->n;) {
        if (strcmp(sv->v[i], s) == 0) {
            free(sv->v[i]);
            memmove(&sv->v[i], &sv->v[i + 1], (sv->n - i) * sizeof *sv->v);
            sv->n--;
            if (parallel) {
                free(parallel->v[i]);
                memmove(&parallel->v[i], &parallel->v[i + 1],
                        (parallel->n - i) * sizeof *parallel->v);
                parallel->n--;
            }
        } else {
            i++;
        }
    }
}

static void
apply_cap(struct plan *plan, const char *op)
{
    const char *cap = op + 1;
    bool all = strcmp(cap, "ALL") == 0;
    if (op[0] == '+') {
        if (all) {
            strv_free(&plan->cap_add);
            strv_free(&plan->cap_drop);
            strv_push(&plan->cap_add, "ALL");
            return;
        }
        strv_remove(&plan->cap_drop, cap, NULL);
        if (!strv_has(&plan->cap_add, "ALL") && !strv_has(&plan->cap_add, cap))
            strv_push(&plan->cap_add, cap);
        return;
    }
    if (all) {
        strv_free(&plan->cap_add);
        strv_free(&plan->cap_drop);
        return;
    }
    strv_remove(&plan->cap_add, cap, NULL);
    if (strv_has(&plan->cap_add, "ALL") && !strv_has(&plan->cap_drop, cap))
        strv_push(&plan->cap_drop, cap);
}

static void
apply_env(struct plan *plan, const char *op)
{
    if (op[0] == '-') {
        if (strcasecmp(op + 1, "ALL") == 0) {
            plan->clearenv = true;
            return;
        }
        strv_remove(&plan->setenv_names, op + 1, &plan->setenv_values);
        if (!strv_has(&plan->unsetenv, op + 1))
            strv_push(&plan->unsetenv, op + 1);
        return;
    }
    const char *eq = strchr(op + 1, '=');
    char *name = xstrndup(op + 1, (size_t)(eq - op - 1));
    strv_remove(&plan->setenv_names, name, &plan->setenv_values);
    strv_push_take(&plan->setenv_names, name);
    strv_push(&plan->setenv_values, eq + 1);
}

static unsigned
apply_overrides(struct plan *plan, void *ctx, struct diag_sink *sink)
{
    struct run_args *ra = ctx;
    unsigned before = sink->errors;
    for (size_t m = 0; m < ra->n_mounts; m++) {
        const struct cli_mount *cm = &ra->mounts[m];
        for (size_t i = 0; i < plan->n_ops;) {
            if (strcmp(plan->ops[i].dest, cm->dest) == 0)
                remove_op(plan, i);
            else
                i++;
        }
        struct plan_op *op = plan_add_op(plan, cm->kind);
        op->dest = xstrdup(cm->dest);
        op->source = cm->source ? xstrdup(cm->source) : NULL;
        op->size = cm->size;
        plan_loc_set(&op->origin, cm->origin, 0, 0);
    }
    for (size_t i = 0; i < plan->n_ops; i++)
        plan->ops[i].decl = i;
    for (size_t i = 0; i < ra->caps.n; i++)
        apply_cap(plan, ra->caps.v[i]);
    for (int k = 0; k < PLAN_NS_COUNT; k++) {
        if (ra->ns[k] == 1)
            plan->namespaces |= 1u << k;
        else if (ra->ns[k] == 0)
            plan->namespaces &= ~(1u << k);
    }
    for (size_t i = 0; i < ra->env.n; i++)
        apply_env(plan, ra->env.v[i]);
    if (ra->hostname) {
        free(plan->hostname);
        plan->hostname = xstrdup(ra->hostname);
    }
    if (plan->hostname)
        plan->namespaces |= PLAN_NS_UTS;
    if (plan->namespaces & PLAN_NS_NET)
        plan->namespaces |= PLAN_NS_UTS | PLAN_NS_IPC;
    if (ra->chdir) {
        free(plan->chdir);
        plan->chdir = xstrdup(ra->chdir);
    }
    if (ra->timeout_ms)
        plan->timeout_ms = ra->timeout_ms;
    if (ra->new_session >= 0)
        plan->new_session = ra->new_session;
    if (ra->die_with_parent >= 0)
        plan->die_with_parent = ra->die_with_parent;
    if (plan->n_ops == 0)
        diag_error(sink, NULL,
                   "at least one mount point is required: the sandbox root would "
                   "be empty (add one to the profile or pass --bind SRC:DEST)");

    /* The current directory bound read-write (the default profile's project bind) must
     * not be / or the home directory: the agent could then write everywhere. */
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        if ((op->kind != PLAN_OP_BIND && op->kind != PLAN_OP_DEV_BIND) || !op->source ||
            strcmp(op->source, ra->cwd) != 0)
            continue;
        const char *what = strcmp(ra->cwd, "/") == 0                    ? "the root directory"
                           : ra->home && strcmp(ra->cwd, ra->home) == 0 ? "your home directory"
                                                                        : NULL;
        if (what)
            diag_error(sink, &op->origin,
                       "refusing to bind the current directory '%s' read-write: it is %s, "
                       "so the sandbox could change everything in it; run agent-nook from a "
                       "project directory, or choose the mounts with --config or --profile",
                       ra->cwd, what);
        for (size_t k = 0; k < plan->n_ops && !what; k++) {
            if (k != i && strcmp(plan->ops[k].dest, op->dest) == 0) {
                diag_error(sink, &op->origin,
                           "the current directory '%s' is also a mount target of the "
                           "profile, so it cannot be bound as the project; run agent-nook "
                           "from a project directory",
                           ra->cwd);
                break;
            }
        }
    }
    return sink->errors - before;
}

/* ---- run: which profile --------------------------------------------------------- */

static bool
file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* Writes the built-in default to `path` unless something is there already. */
static void
auto_init(const char *path, const struct globals *g)
{
    mkdir_parent(path, 0700);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (write_all(fd, nook_default_profile, strlen(nook_default_profile)) < 0 ||
            close(fd) < 0) {
            if (!g->quiet)
                fprintf(stderr, "agent-nook: warning: cannot write '%s': %s\n", path,
                        strerror(errno));
            unlink(path);
        }
    } else if (errno != EEXIST && !g->quiet) {
        fprintf(stderr,
                "agent-nook: warning: cannot create '%s' (using the built-in default): %s\n",
                path, strerror(errno));
    }
}

/* The profile to compile: its path (owned) or NULL with *builtin set for the embedded
 * default. Returns 0 or an exit status. */
static int
pick_profile(const struct run_args *ra, const struct globals *g, char **path, bool *builtin)
{
    *builtin = false;
    if (ra->config) {
        *path = xstrdup(ra->config);
        return 0;
    }
    char *confdir = logconf_config_dir();
    if (ra->profile) {
        if (!*ra->profile || strchr(ra->profile, '/') || ra->profile[0] == '.') {
            free(confdir);
            return usage_error("--profile '%s': a profile name, not a path (use --config PATH)",
                               ra->profile);
        }
        char *user = confdir ? xasprintf("%s/profiles/%s.yaml", confdir, ra->profile) : NULL;
        const char *dir = getenv("AGENT_NOOK_PROFILE_DIR");
        char *shipped =
            xasprintf("%s/%s.yaml", dir && *dir ? dir : NOOK_PROFILE_DIR, ra->profile);
        free(confdir);
        if (user && file_exists(user)) {
            *path = user;
            free(shipped);
            return 0;
        }
        free(user);
        if (file_exists(shipped)) {
            *path = shipped;
            return 0;
        }
        free(shipped);
        if (strcmp(ra->profile, "default") == 0) {
            *builtin = true;
            *path = NULL;
            return 0;
        }
        return tool_error("no profile named '%s' (looked in ~/.config/agent-nook/profiles and "
                          "%s)",
                          ra->profile, dir && *dir ? dir : NOOK_PROFILE_DIR);
    }
    if (!confdir) {
        *builtin = true;
        *path = NULL;
        return 0;
    }
    char *p = xasprintf("%s/sandbox.yaml", confdir);
    free(confdir);
    if (!file_exists(p))
        auto_init(p, g);
    if (!file_exists(p)) {
        free(p);
        *builtin = true;
        *path = NULL;
        return 0;
    }
    *path = p;
    return 0;
}

static int
load_log_config(struct log *log, const struct globals *g)
{
    char *confdir = logconf_config_dir();
    if (confdir) {
        char *p = xasprintf("%s/logging.yaml", confdir);
        struct diag_sink sink;
        diag_init(&sink, stderr, "agent-nook");
        int r = logconf_load(p, log, &sink);
        free(p);
        free(confdir);
        if (r < 0)
            return RUN_EXIT_FAILURE;
    }
    if (g->quiet)
        log->console = LOG_ERROR;
    return 0;
}

static int
cmd_run(int argc, char **argv, struct globals *g)
{
    struct run_args ra = {0};
    ra.cwd = getcwd(NULL, 0);
    if (!ra.cwd)
        return tool_error("cannot find the current directory: %s", strerror(errno));
    /* The working directory is a real path; so must $HOME be to compare (a /home that
     * is a symlink, as on Fedora Silverblue, must not slip through). */
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        ra.home = realpath(home, NULL);
    int rc = parse_run(argc, argv, &ra, g);
    if (rc) {
        run_args_free(&ra);
        return rc < 0 ? 0 : rc;
    }
    /* ${PWD} in a profile is the directory agent-nook runs in, whatever the shell said. */
    setenv("PWD", ra.cwd, 1);

    struct log log;
    log_init(&log, "agent-nook");
    rc = load_log_config(&log, g);
    char *path = NULL;
    bool builtin = false;
    if (!rc)
        rc = pick_profile(&ra, g, &path, &builtin);
    if (rc) {
        log_free(&log);
        run_args_free(&ra);
        return rc;
    }
    /* The installed bwrap decides which options are there (checked before starting),
     * so the compiler does not assume an older one. */
    struct compile_options opts = {
        .target = {999, 0, 0}, .adjust = apply_overrides, .adjust_ctx = &ra};
    char *sh_c[3] = {(char *)"/bin/sh", (char *)"-c", (char *)ra.command_string};
    if (ra.command_string) {
        opts.command = sh_c;
        opts.n_command = 3;
    } else {
        opts.command = ra.cmd;
        opts.n_command = (size_t)ra.ncmd;
    }
    struct diag_sink sink;
    diag_init(&sink, stderr, "agent-nook");
    struct plan plan;
    const char *origin = builtin ? "(built-in default profile)" : path;
    int cr = builtin ? compile_data(origin, nook_default_profile, strlen(nook_default_profile),
                                    &opts, &sink, &plan)
                     : compile_file(path, &opts, &sink, &plan);
    if (cr < 0) {
        fprintf(stderr, "agent-nook: %u error%s in the profile\n", sink.errors,
                sink.errors == 1 ? "" : "s");
        rc = RUN_EXIT_FAILURE;
    } else {
        log_set_name(&log, plan.name);
        if (ra.dry_run)
            printf("# agent-nook: profile %s\n", origin);
        struct launch l = {
            .prog = "agent-nook",
            .origin = origin,
            .dry_run = ra.dry_run,
            .verbose = g->verbose,
            .grace_ms = 5000,
            .log = &log,
        };
        rc = launch_plan(&plan, &l);
    }
    plan_free(&plan);
    free(path);
    log_free(&log);
    run_args_free(&ra);
    return rc;
}

/* ---- logs ----------------------------------------------------------------------- */

static volatile sig_atomic_t stop_signal;

static void
on_stop(int sig)
{
    stop_signal = sig;
}

/* Prints the last n lines of the file open at fd; returns the offset reached. */
static off_t
print_tail(int fd, long n)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return 0;
    off_t end = st.st_size, pos = end;
    long newlines = 0;
    char buf[8192];
    /* Walk back to the n-th newline before the end (the last byte's own newline does
     * not count): the lines after it are the last n. */
    while (pos > 0 && newlines < n) {
        off_t chunk = pos >= (off_t)sizeof buf ? (off_t)sizeof buf : pos;
        pos -= chunk;
        if (pread(fd, buf, (size_t)chunk, pos) != chunk)
            return end;
        for (off_t k = chunk; k-- > 0;) {
            if (buf[k] == '\n' && pos + k != end - 1 && ++newlines >= n) {
                pos += k + 1;
                goto found;
            }
        }
    }
found:
    if (n == 0)
        pos = end;
    for (off_t at = pos; at < end;) {
        ssize_t r = pread(fd, buf, sizeof buf, at);
        if (r <= 0)
            break;
        if (write_all(STDOUT_FILENO, buf, (size_t)r) < 0)
            return end;
        at += r;
    }
    return end;
}

static int
cmd_logs(int argc, char **argv, struct globals *g)
{
    long n = 50;
    bool follow = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int rc = 0;
        if (strcmp(a, "-f") == 0 || strcmp(a, "-F") == 0 || strcmp(a, "--follow") == 0) {
            follow = true;
        } else if (take_value(argc, argv, &i, "-n", &v, &rc) ||
                   take_value(argc, argv, &i, "--tail", &v, &rc) ||
                   take_value(argc, argv, &i, "--lines", &v, &rc)) {
            if (rc)
                return rc;
            char *end;
            errno = 0;
            n = strtol(v, &end, 10);
            if (errno || *end || end == v || n < 0)
                return usage_error("-n '%s': expected a number of lines", v);
        } else if (strncmp(a, "-n", 2) == 0 && a[2] >= '0' && a[2] <= '9') {
            char *end;
            n = strtol(a + 2, &end, 10);
            if (*end)
                return usage_error("-n '%s': expected a number of lines", a + 2);
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(logs_usage, stdout);
            return 0;
        } else {
            return usage_error("unknown logs option '%s'", a);
        }
    }
    struct log log;
    log_init(&log, "agent-nook");
    int rc = load_log_config(&log, g);
    if (rc || !log.path) {
        log_free(&log);
        return rc ? rc : tool_error("no log file: set HOME or XDG_STATE_HOME");
    }
    int fd = open(log.path, O_RDONLY | O_CLOEXEC);
    if (!follow) {
        if (fd >= 0) {
            print_tail(fd, n);
            close(fd);
        }
        log_free(&log);
        return 0;
    }
    struct sigaction sa = {.sa_handler = on_stop};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    off_t off = 0;
    struct stat cur = {0};
    if (fd >= 0) {
        off = print_tail(fd, n);
        fstat(fd, &cur);
    }
    /* Poll the path: a new inode means the file was rotated (read the new one from its
     * start), a smaller size that it was truncated (start over). */
    while (!stop_signal) {
        if (fd < 0) {
            fd = open(log.path, O_RDONLY | O_CLOEXEC);
            off = 0;
            if (fd >= 0)
                fstat(fd, &cur);
        }
        if (fd >= 0) {
            char buf[8192];
            ssize_t r;
            while ((r = pread(fd, buf, sizeof buf, off)) > 0) {
                write_all(STDOUT_FILENO, buf, (size_t)r);
                off += r;
            }
            struct stat now;
            if (stat(log.path, &now) < 0 || now.st_ino != cur.st_ino ||
                now.st_dev != cur.st_dev) {
                /* Rotated or removed: finish the old file, then follow the path. */
                while ((r = pread(fd, buf, sizeof buf, off)) > 0) {
                    write_all(STDOUT_FILENO, buf, (size_t)r);
                    off += r;
                }
                close(fd);
                fd = -1;
                continue;
            }
            if (now.st_size < off)
                off = 0;
        }
        poll(NULL, 0, 200);
    }
    if (fd >= 0)
        close(fd);
    log_free(&log);
    return stop_signal == SIGINT ? 130 : 128 + stop_signal;
}

/* ---- status --------------------------------------------------------------------- */

/* Runs argv with stdout captured (first line kept) and stderr to /dev/null; returns
 * the exit status, or -1. */
static int
run_capture(char *const argv[], char *out, size_t outlen)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
        dup2(devnull, 0);
        dup2(fds[1], 1);
        dup2(devnull, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t r;
    while (len + 1 < outlen && (r = read(fds[0], out + len, outlen - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = '\0';
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    close(fds[0]);
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static bool
read_sysctl(const char *path, char *out, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t r = read(fd, out, len - 1);
    close(fd);
    if (r <= 0)
        return false;
    out[r] = '\0';
    out[strcspn(out, "\n")] = '\0';
    return true;
}

static int
cmd_status(int argc, char **argv, struct globals *g)
{
    (void)g;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(status_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "-v") != 0 && strcmp(argv[i], "--verbose") != 0)
            return usage_error("unknown status option '%s'", argv[i]);
    }
    bool can_start = true;
    char *cwd = getcwd(NULL, 0);
    if (cwd)
        setenv("PWD", cwd, 1); /* ${PWD} in the profile, as `run` sees it */
    free(cwd);
    printf("agent-nook %s status\n", NOOK_VERSION);
    char *err = NULL;
    char *bwrap = run_find_bwrap(NULL, &err);
    if (!bwrap) {
        printf("  bwrap:            NOT USABLE: %s\n", err);
        free(err);
        err = NULL;
        can_start = false;
    } else {
        char version[256] = "";
        char *const vargv[] = {bwrap, (char *)"--version", NULL};
        run_capture(vargv, version, sizeof version);
        printf("  bwrap:            %s (%s)\n", bwrap, *version ? version : "version unknown");
        struct strv opts = {0};
        if (probe_bwrap(bwrap, &opts, &err) < 0) {
            printf("  bwrap options:    cannot probe: %s\n", err);
            free(err);
            err = NULL;
            can_start = false;
        } else {
            static const char *const notable[] = {"--size",           "--perms",   "--clearenv",
                                                  "--disable-userns", "--bind-fd", "--overlay",
                                                  "--argv0"};
            printf("  bwrap options:    %zu;", opts.n);
            for (size_t k = 0; k < sizeof notable / sizeof notable[0]; k++) {
                bool has = false;
                for (size_t j = 0; j < opts.n && !has; j++)
                    has = strcmp(opts.v[j], notable[k]) == 0;
                printf(" %s%s", has ? "" : "no ", notable[k]);
            }
            printf("\n");
        }
        strv_free(&opts);
    }
    /* User namespaces: try one, and report what can forbid them. */
    pid_t pid = fork();
    if (pid == 0)
        _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
    int st = 0;
    bool userns =
        pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("  user namespaces:  %s (tried as uid %d)\n", userns ? "available" : "NOT AVAILABLE",
           (int)getuid());
    char val[64];
    if (read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", val, sizeof val))
        printf("  apparmor:         kernel.apparmor_restrict_unprivileged_userns = %s%s\n", val,
               strcmp(val, "0") ? " (restricts unprivileged user namespaces)" : "");
    if (read_sysctl("/proc/sys/kernel/unprivileged_userns_clone", val, sizeof val))
        printf("  sysctl:           kernel.unprivileged_userns_clone = %s\n", val);
    if (read_sysctl("/proc/sys/user/max_user_namespaces", val, sizeof val))
        printf("  sysctl:           user.max_user_namespaces = %s\n", val);
    if (!userns && getuid() != 0)
        can_start = false;

    /* The profile. */
    char *confdir = logconf_config_dir();
    char *conf = confdir ? xasprintf("%s/sandbox.yaml", confdir) : NULL;
    if (conf && file_exists(conf)) {
        FILE *diag = fopen("/dev/null", "w");
        struct diag_sink sink;
        diag_init(&sink, diag ? diag : stderr, "agent-nook");
        struct plan plan;
        struct compile_options opts = {.target = {999, 0, 0}};
        int r = compile_file(conf, &opts, &sink, &plan);
        printf("  profile:          %s (%s)\n", conf,
               r == 0 ? "compiles" : "DOES NOT COMPILE: see 'agent-nook run --dry-run true'");
        plan_free(&plan);
        if (diag)
            fclose(diag);
    } else {
        printf(
            "  profile:          %s (not found: the built-in default will be written on first "
            "run)\n",
            conf ? conf : "(no HOME)");
    }
    free(conf);
    free(confdir);

    /* The log. */
    struct log log;
    log_init(&log, "agent-nook");
    load_log_config(&log, g);
    struct stat ls;
    if (log.path && stat(log.path, &ls) == 0)
        printf("  log:              %s (%lld KiB)\n", log.path, (long long)ls.st_size / 1024);
    else
        printf("  log:              %s (not written yet)\n", log.path ? log.path : "(none)");
    log_free(&log);

    /* Finally: does a minimal sandbox start? */
    if (bwrap) {
        char out[64];
        char *const targv[] = {bwrap,
                               (char *)"--ro-bind",
                               (char *)"/",
                               (char *)"/",
                               (char *)"--unshare-user",
                               (char *)"--unshare-pid",
                               (char *)"--cap-drop",
                               (char *)"ALL",
                               (char *)"--",
                               (char *)"/bin/sh",
                               (char *)"-c",
                               (char *)"echo ok",
                               NULL};
        int r = run_capture(targv, out, sizeof out);
        bool ok = r == 0 && strcmp(out, "ok") == 0;
        printf("  sandbox:          %s\n", ok ? "starts" : "DOES NOT START (bwrap failed)");
        if (!ok)
            can_start = false;
    }
    free(bwrap);
    printf("%s\n", can_start ? "A sandbox can start here." : "A sandbox cannot start here.");
    return can_start ? 0 : 1;
}

/* ---- main ----------------------------------------------------------------------- */

int
main(int argc, char **argv)
{
    struct globals g = {0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--version") == 0) {
            printf("agent-nook %s\n", NOOK_VERSION);
            return 0;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(main_usage, stdout);
            return 0;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            g.verbose = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            g.quiet = true;
        } else if (strcmp(a, "--config") == 0 || strncmp(a, "--config=", 9) == 0) {
            return usage_error(
                "--config is an option of 'run': agent-nook run --config PATH ...");
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (i >= argc) {
        fputs(main_usage, stdout);
        return 0;
    }
    const char *cmd = argv[i];
    int sub_argc = argc - i - 1;
    char **sub_argv = argv + i + 1;
    if (strcmp(cmd, "run") == 0)
        return cmd_run(sub_argc, sub_argv, &g);
    if (strcmp(cmd, "logs") == 0)
        return cmd_logs(sub_argc, sub_argv, &g);
    if (strcmp(cmd, "status") == 0)
        return cmd_status(sub_argc, sub_argv, &g);
    if (strcmp(cmd, "help") == 0) {
        const char *topic = sub_argc > 0 ? sub_argv[0] : NULL;
        if (!topic)
            fputs(main_usage, stdout);
        else if (strcmp(topic, "run") == 0)
            fputs(run_usage, stdout);
        else if (strcmp(topic, "logs") == 0)
            fputs(logs_usage, stdout);
        else if (strcmp(topic, "status") == 0)
            fputs(status_usage, stdout);
        else
            return usage_error("no help for '%s' (commands: run, logs, status)", topic);
        return 0;
    }
    return usage_error("unknown command '%s' (commands: run, logs, status, help)", cmd);
}
