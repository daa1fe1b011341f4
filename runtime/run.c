/* run.c - see run.h. */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "names.h"
#include "probe.h"

extern char **environ;

/* Fixed descriptor numbers in bwrap: the options and the status pipe. */
#define FD_ARGS 3
#define FD_STATUS 4

static uint64_t
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- finding and checking bwrap ------------------------------------------------- */

char *
run_find_bwrap(const char *explicit_path, char **err)
{
    const char *env = getenv("NOOK_BWRAP");
    char *path = NULL;
    if (explicit_path) {
        path = xstrdup(explicit_path);
    } else if (env && *env) {
        if (env[0] != '/') {
            *err = xasprintf("NOOK_BWRAP must be an absolute path, got '%s'", env);
            return NULL;
        }
        path = xstrdup(env);
    } else {
        path = find_in_path("bwrap");
        if (!path) {
            *err = xstrdup("bwrap not found in PATH (install bubblewrap, or set NOOK_BWRAP)");
            return NULL;
        }
    }
    struct stat st;
    if (stat(path, &st) < 0) {
        *err = xasprintf("cannot use bwrap '%s': %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    /* A bwrap someone else can replace would run with our authority; a setuid one has
     * had privilege-escalation bugs and refuses options we use. */
    const char *why = NULL;
    if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (access(path, X_OK) < 0)
        why = "not executable";
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        why = "writable by group or others";
    else if (st.st_uid != 0 && st.st_uid != getuid())
        why = "owned by another user";
    else if (st.st_mode & S_ISUID)
        why = "setuid (agent-nook runs bwrap unprivileged)";
    if (why) {
        *err = xasprintf("refusing bwrap '%s': %s", path, why);
        free(path);
        return NULL;
    }
    return path;
}

char *
run_missing_options(const struct plan *plan, const char *bwrap, char **err)
{
    struct strv have = {0}, need = {0};
    if (probe_bwrap(bwrap, &have, err) < 0)
        return NULL;
    plan_bwrap_options_used(plan, &need);
    strv_push(&need, "--args");
    strv_push(&need, "--json-status-fd");
    struct buf missing = {0};
    buf_add(&missing, "", 0);
    for (size_t i = 0; i < need.n; i++)
        if (!strv_has(&have, need.v[i]))
            buf_printf(&missing, "%s%s", missing.len ? ", " : "", need.v[i]);
    strv_free(&have);
    strv_free(&need);
    return missing.data;
}

/* ---- before starting ------------------------------------------------------------ */

static char *
origin_text(const struct plan_op *op, size_t i)
{
    char *loc = plan_loc_str(&op->origin);
    char *r = loc ? xasprintf("ops[%zu], from %s", i, loc) : xasprintf("ops[%zu]", i);
    free(loc);
    return r;
}

int
run_prepare(const struct plan *plan, char **err)
{
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        if (op->kind != PLAN_OP_BIND && op->kind != PLAN_OP_RO_BIND &&
            op->kind != PLAN_OP_DEV_BIND)
            continue;
        struct stat st;
        if (stat(op->source, &st) == 0 || op->optional)
            continue;
        if (errno == ENOENT && op->create_source != PLAN_CREATE_NONE) {
            int r;
            if (op->create_source == PLAN_CREATE_DIR) {
                r = mkdir_p(op->source, 0755);
            } else {
                r = mkdir_parent(op->source, 0755);
                int fd = r < 0
                             ? -1
                             : open(op->source,
                                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                if (fd >= 0)
                    close(fd);
                r = fd < 0 && errno != EEXIST ? -1 : 0;
            }
            if (r == 0)
                continue;
            char *o = origin_text(op, i);
            *err = xasprintf("cannot create bind source '%s' (%s): %s", op->source, o,
                             strerror(errno));
            free(o);
            return -1;
        }
        char *o = origin_text(op, i);
        *err = xasprintf("bind source '%s' %s (%s)", op->source,
                         errno == ENOENT ? "does not exist" : strerror(errno), o);
        free(o);
        return -1;
    }
    return 0;
}

/* ---- the arguments memfd -------------------------------------------------------- */

/* A sealed memfd (or an unlinked temporary file) holding the options NUL-separated:
 * nothing from the plan passes through a shell or shows in /proc/PID/cmdline, and the
 * set cannot change after the check. */
static int
args_fd(const struct strv *opts)
{
    struct buf b = {0};
    for (size_t i = 0; i < opts->n; i++)
        buf_add(&b, opts->v[i], strlen(opts->v[i]) + 1);
    int fd = memfd_create("nook-bwrap-args", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    bool sealable = fd >= 0;
    if (fd < 0) {
        char tmpl[] = "/tmp/nook-args-XXXXXX";
        fd = mkostemp(tmpl, O_CLOEXEC);
        if (fd >= 0)
            unlink(tmpl);
    }
    if (fd < 0 || write_all(fd, b.data ? b.data : "", b.len) < 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        buf_free(&b);
        errno = saved;
        return -1;
    }
    buf_free(&b);
    if (sealable)
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    lseek(fd, 0, SEEK_SET);
    return fd;
}

/* ---- starting bwrap ------------------------------------------------------------ */

/* posix_spawn rather than fork: glibc starts the child with CLONE_VM|CLONE_VFORK, so no
 * page tables are copied and neither process takes copy-on-write faults (on a VM where
 * a page fault costs tens of microseconds, that is a millisecond of start-up), and an
 * exec failure comes back as the return value, with no pipe to wait on. Returns 0 or an
 * errno value. */
static int
spawn_bwrap(const char *bwrap, char **argv, int afd, int sfd, bool own_group, pid_t *pid)
{
    /* Lifted to 10 and above first, so placing one at 3 or 4 cannot clobber the other. */
    int a = fcntl(afd, F_DUPFD_CLOEXEC, 10);
    int s = a < 0 ? -1 : fcntl(sfd, F_DUPFD_CLOEXEC, 10);
    if (s < 0) {
        int e = errno;
        if (a >= 0)
            close(a);
        return e;
    }
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&fa);
    /* Every signal back to its default disposition and none blocked. That includes the
     * two real-time signals glibc keeps for itself (32, 33): sigfillset leaves them out,
     * but a caller may have left them ignored and an ignored disposition survives exec;
     * glibc's child resets every signal whose bit is set, so every bit is set. */
    sigset_t all, none;
    memset(&all, 0xff, sizeof all);
    sigemptyset(&none);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
    /* With --new-session the payload has no controlling terminal; keeping bwrap out of
     * the terminal's process group means Ctrl-C reaches only nook-exec, which forwards
     * it to the payload instead of killing bwrap (and with it the sandbox). */
    if (own_group)
        flags |= POSIX_SPAWN_SETPGROUP; /* process group 0: a new one, its own */
    int r = posix_spawnattr_setsigdefault(&attr, &all);
    if (!r)
        r = posix_spawnattr_setsigmask(&attr, &none);
    if (!r)
        r = posix_spawnattr_setflags(&attr, flags);
    /* dup2 clears close-on-exec on the copies. The payload gets 0, 1, 2 and nothing
     * else: bwrap passes on every descriptor it does not consume itself. */
    if (!r)
        r = posix_spawn_file_actions_adddup2(&fa, a, FD_ARGS);
    if (!r)
        r = posix_spawn_file_actions_adddup2(&fa, s, FD_STATUS);
    if (!r)
        r = posix_spawn_file_actions_addclosefrom_np(&fa, FD_STATUS + 1);
    if (!r)
        r = posix_spawn(pid, bwrap, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(a);
    close(s);
    return r;
}

/* ---- supervision ---------------------------------------------------------------- */

struct super {
    const struct plan *plan;
    pid_t bwrap;
    pid_t sandbox; /* bwrap's child-pid: PID 1 of the sandbox (pid ns) or the payload */
    bool have_exit_code;
    int exit_code;
    struct buf status; /* unparsed status bytes */
};

/* Parses complete JSON lines from bwrap's --json-status-fd. */
static void
parse_status(struct super *s)
{
    char *line = s->status.data;
    char *nl;
    while (line && (nl = strchr(line, '\n'))) {
        *nl = '\0';
        const char *p;
        if ((p = strstr(line, "\"child-pid\":")))
            s->sandbox = (pid_t)strtol(p + 12, NULL, 10);
        if ((p = strstr(line, "\"exit-code\":"))) {
            s->exit_code = (int)strtol(p + 12, NULL, 10);
            s->have_exit_code = true;
        }
        line = nl + 1;
    }
    if (line && line != s->status.data) {
        size_t rest = strlen(line);
        memmove(s->status.data, line, rest + 1);
        s->status.len = rest;
    }
}

/* The payload: with a PID namespace, the first child of the sandbox's PID 1 (bwrap's
 * init, which ignores SIGTERM); without one, bwrap's child itself. */
static pid_t
payload_pid(const struct super *s)
{
    if (s->sandbox <= 0)
        return 0;
    if (!(s->plan->namespaces & PLAN_NS_PID))
        return s->sandbox;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)s->sandbox, (int)s->sandbox);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int pid = 0;
    if (fscanf(f, "%d", &pid) != 1)
        pid = 0;
    fclose(f);
    return pid;
}

static void
forward(const struct super *s, int sig)
{
    pid_t p = payload_pid(s);
    /* Before the payload exists there is nothing to be graceful with: stop bwrap,
     * --die-with-parent takes the rest. */
    kill(p > 0 ? p : s->bwrap, sig);
}

static void
kill_sandbox(const struct super *s)
{
    /* SIGKILL to PID 1 of a PID namespace kills every process in it, however they
     * forked or setsid'd. */
    if (s->sandbox > 0)
        kill(s->sandbox, SIGKILL);
    kill(s->bwrap, SIGKILL);
}

int
run_plan(const struct plan *plan, const struct run_options *opts, struct run_result *res,
         char **err)
{
    struct strv options = {0};
    plan_bwrap_args(plan, &options);
    strv_push(&options, "--json-status-fd");
    strv_push(&options, "4");
    struct strv argv = {0};
    strv_push(&argv, "bwrap");
    strv_push(&argv, "--args");
    strv_push(&argv, "3");
    plan_bwrap_command(plan, &argv);

    int afd = args_fd(&options);
    strv_free(&options);
    int spipe[2] = {-1, -1}, sigfd = -1;
    sigset_t mask, old;
    sigemptyset(&mask);
    int fwd[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
        sigaddset(&mask, fwd[i]);
    sigaddset(&mask, SIGCHLD);
    if (afd < 0 || pipe2(spipe, O_CLOEXEC) < 0) {
        *err = xasprintf("cannot prepare bwrap's arguments: %s", strerror(errno));
        goto fail;
    }
    /* Blocked before the spawn, so no signal is lost before the loop reads them. */
    sigprocmask(SIG_BLOCK, &mask, &old);
    sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigfd < 0) {
        *err = xasprintf("signalfd: %s", strerror(errno));
        goto fail_unblock;
    }
    uint64_t start = now_ms();
    pid_t pid;
    int serr = spawn_bwrap(opts->bwrap, argv.v, afd, spipe[1], plan->new_session, &pid);
    close(afd);
    afd = -1;
    close(spipe[1]);
    spipe[1] = -1;
    if (serr) {
        *err = xasprintf("cannot execute '%s': %s", opts->bwrap, strerror(serr));
        goto fail_unblock;
    }

    struct super s = {.plan = plan, .bwrap = pid};
    bool exited = false, status_open = true, timed_out = false;
    int wstatus = 0;
    uint64_t deadline = plan->timeout_ms ? start + plan->timeout_ms : 0;
    uint64_t kill_at = 0;
    fcntl(spipe[0], F_SETFL, O_NONBLOCK);
    while (!exited) {
        uint64_t now = now_ms();
        if (deadline && !timed_out && now >= deadline) {
            timed_out = true;
            forward(&s, SIGTERM);
            kill_at = now + opts->grace_ms;
        }
        if (kill_at && now >= kill_at) {
            kill_sandbox(&s);
            kill_at = 0;
        }
        uint64_t next = timed_out ? kill_at : deadline;
        int wait = next ? (int)(next > now ? next - now : 0) : -1;
        struct pollfd pfd[2] = {{sigfd, POLLIN, 0}, {status_open ? spipe[0] : -1, POLLIN, 0}};
        int pr = poll(pfd, 2, wait);
        if (pr < 0 && errno != EINTR)
            break;
        if (status_open && (pfd[1].revents & (POLLIN | POLLHUP))) {
            char chunk[512];
            ssize_t r = read(spipe[0], chunk, sizeof chunk);
            if (r > 0) {
                buf_add(&s.status, chunk, (size_t)r);
                parse_status(&s);
            } else if (r == 0) {
                status_open = false;
            }
        }
        struct signalfd_siginfo si;
        while (read(sigfd, &si, sizeof si) == sizeof si) {
            if (si.ssi_signo != SIGCHLD)
                forward(&s, (int)si.ssi_signo);
        }
        if (waitpid(pid, &wstatus, WNOHANG) == pid)
            exited = true;
    }
    /* bwrap writes the exit code before it exits: drain what is left. */
    for (;;) {
        char chunk[512];
        ssize_t r = read(spipe[0], chunk, sizeof chunk);
        if (r <= 0)
            break;
        buf_add(&s.status, chunk, (size_t)r);
        parse_status(&s);
    }
    res->elapsed_ms = now_ms() - start;
    res->timed_out = timed_out;
    res->payload_ran = s.have_exit_code;
    res->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    if (timed_out)
        res->status = RUN_EXIT_TIMEOUT;
    else if (s.have_exit_code)
        res->status = s.exit_code;
    else if (WIFSIGNALED(wstatus))
        res->status = 128 + WTERMSIG(wstatus);
    else
        res->status = run_classify_failure(plan);
    buf_free(&s.status);
    close(spipe[0]);
    close(sigfd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    strv_free(&argv);
    return 0;

fail_unblock:
    sigprocmask(SIG_SETMASK, &old, NULL);
fail:
    for (int i = 0; i < 2; i++) {
        if (spipe[i] >= 0)
            close(spipe[i]);
    }
    if (afd >= 0)
        close(afd);
    if (sigfd >= 0)
        close(sigfd);
    strv_free(&argv);
    return -1;
}

/* ---- classifying a sandbox that did not run its payload ------------------------- */

/* PATH as the payload will see it: ours, after the plan's environment operations. */
static const char *
sandbox_path_var(const struct plan *plan)
{
    const char *path = plan->clearenv ? NULL : getenv("PATH");
    for (size_t i = 0; i < plan->unsetenv.n; i++)
        if (strcmp(plan->unsetenv.v[i], "PATH") == 0)
            path = NULL;
    for (size_t i = 0; i < plan->setenv_names.n; i++)
        if (strcmp(plan->setenv_names.v[i], "PATH") == 0)
            path = plan->setenv_values.v[i];
    return path ? path : "/bin:/usr/bin"; /* execvp's default */
}

/* Whether the sandbox can execute the host file st describes: the kernel's check for a
 * process without CAP_DAC_OVERRIDE (the sandbox drops it unless the plan keeps it),
 * which access() as root would not make. */
static bool
sandbox_can_exec(const struct plan *plan, const struct stat *st)
{
    if (!S_ISREG(st->st_mode))
        return false;
    for (size_t i = 0; i < plan->cap_add.n; i++)
        if (strcmp(plan->cap_add.v[i], "ALL") == 0 ||
            strcmp(plan->cap_add.v[i], "CAP_DAC_OVERRIDE") == 0)
            return (st->st_mode & 0111) != 0;
    if (st->st_uid == geteuid())
        return st->st_mode & S_IXUSR;
    bool group = st->st_gid == getegid();
    gid_t groups[256];
    int n = getgroups(256, groups);
    for (int k = 0; k < n && !group; k++)
        group = groups[k] == st->st_gid;
    return st->st_mode & (group ? S_IXGRP : S_IXOTH);
}

/* The result of looking `path` (canonical, in the sandbox) up: 0 runnable, 126 there
 * but not executable, 127 missing (or its #! interpreter is), -1 cannot tell. */
static int
lookup_command(const struct plan *plan, const char *path, int depth)
{
    bool known;
    char *host = plan_host_path(plan, path, &known);
    if (!known)
        return -1;
    struct stat st;
    if (!host || stat(host, &st) < 0) {
        free(host);
        return RUN_EXIT_NOTFOUND;
    }
    if (!sandbox_can_exec(plan, &st)) {
        free(host);
        return RUN_EXIT_NOEXEC;
    }
    /* A script: its interpreter must be there too (execve says ENOENT otherwise). */
    char head[256] = "";
    int fd = open(host, O_RDONLY | O_CLOEXEC);
    free(host);
    ssize_t r = fd >= 0 ? read(fd, head, sizeof head - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (r > 2 && head[0] == '#' && head[1] == '!' && depth < 4) {
        head[r] = '\0';
        char *interp = head + 2;
        interp += strspn(interp, " \t");
        interp[strcspn(interp, " \t\n")] = '\0';
        char *norm = NULL;
        const char *why;
        if (interp[0] == '/' && path_normalize(interp, &norm, &why) == 0) {
            int sub = lookup_command(plan, norm, depth + 1);
            free(norm);
            return sub;
        }
    }
    return 0;
}

int
run_classify_failure(const struct plan *plan)
{
    /* A working directory that is not there is bwrap's setup failing. */
    if (plan->chdir) {
        bool known;
        char *host = plan_host_path(plan, plan->chdir, &known);
        struct stat st;
        bool missing = known && host && (stat(host, &st) < 0 || !S_ISDIR(st.st_mode));
        free(host);
        if (missing)
            return RUN_EXIT_FAILURE;
    }
    const char *cmd = plan->command.n ? plan->command.v[0] : "";
    struct strv candidates = {0};
    if (strchr(cmd, '/')) {
        if (cmd[0] == '/')
            strv_push(&candidates, cmd);
        else if (plan->chdir)
            strv_push_take(&candidates, xasprintf("%s/%s", plan->chdir, cmd));
    } else if (*cmd) {
        const char *p = sandbox_path_var(plan);
        while (*p) {
            size_t n = strcspn(p, ":");
            if (n > 0 && p[0] == '/')
                strv_push_take(&candidates, xasprintf("%.*s/%s", (int)n, p, cmd));
            p += n;
            if (*p == ':')
                p++;
        }
    }
    /* execvp: the first runnable candidate wins; EACCES is remembered, ENOENT skipped. */
    int result = RUN_EXIT_NOTFOUND;
    for (size_t i = 0; i < candidates.n; i++) {
        char *norm = NULL;
        const char *why;
        if (path_normalize(candidates.v[i], &norm, &why) < 0)
            continue;
        int r = lookup_command(plan, norm, 0);
        free(norm);
        if (r <= 0) {
            result = RUN_EXIT_FAILURE; /* runnable (or unknown): the sandbox failed */
            break;
        }
        if (r == RUN_EXIT_NOEXEC)
            result = RUN_EXIT_NOEXEC;
    }
    strv_free(&candidates);
    return result;
}
