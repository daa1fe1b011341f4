/* launch.c - see launch.h. */
#include "launch.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "run.h"

char *
launch_command_line(const char *bwrap, const struct plan *plan, bool redact)
{
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    plan_bwrap_command(plan, &argv);
    struct buf b = {0};
    buf_add_shell_word(&b, bwrap);
    for (size_t i = 0; i < argv.n; i++) {
        buf_addc(&b, ' ');
        bool secret = redact && i >= 2 && strcmp(argv.v[i - 2], "--setenv") == 0;
        buf_add_shell_word(&b, secret ? "***" : argv.v[i]);
    }
    strv_free(&argv);
    return b.data;
}

/* An error of the tool itself: on stderr (always) and in the log file. */
static int fail(const struct launch *l, const char *fmt, ...) NOOK_PRINTF(2, 3);

static int
fail(const struct launch *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvasprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: error: %s\n", l->prog, msg);
    enum log_level console = l->log->console;
    l->log->console = LOG_OFF; /* already on stderr */
    log_event(l->log, LOG_ERROR, "Sandbox not started: %s", msg);
    l->log->console = console;
    free(msg);
    return RUN_EXIT_FAILURE;
}

int
launch_plan(const struct plan *plan, const struct launch *l)
{
    char *err = NULL;
    int rc;
    char *bwrap = run_find_bwrap(plan->bwrap, &err);
    if (!bwrap) {
        rc = fail(l, "%s", err);
        free(err);
        return rc;
    }
    if (l->dry_run) {
        char *line = launch_command_line(bwrap, plan, false);
        printf("%s\n", line);
        free(line);
        free(bwrap);
        return fflush(stdout) == 0 ? 0 : RUN_EXIT_FAILURE;
    }
    char *missing = run_missing_options(plan, bwrap, &err);
    if (!missing) {
        rc = fail(l, "%s", err);
        goto out;
    }
    if (*missing) {
        rc = fail(l,
                  "'%s' lacks %s, which the sandbox needs (it was checked for bubblewrap "
                  "%u.%u.%u)",
                  bwrap, missing, plan->target.major, plan->target.minor, plan->target.patch);
        free(missing);
        goto out;
    }
    free(missing);
    if (run_prepare(plan, &err) < 0) {
        rc = fail(l, "%s", err);
        goto out;
    }
    char *line = launch_command_line(bwrap, plan, true);
    log_event(l->log, LOG_INFO, "Starting sandbox from %s: %s", l->origin, line);
    free(line);
    if (l->verbose) {
        char *full = launch_command_line(bwrap, plan, false);
        fprintf(stderr, "%s: running %s\n", l->prog, full);
        free(full);
    }
    struct run_options ro = {bwrap, l->grace_ms};
    struct run_result res;
    if (run_plan(plan, &ro, &res, &err) < 0) {
        rc = fail(l, "%s", err);
        goto out;
    }
    rc = res.status;
    const char *how = res.timed_out     ? " (timed out)"
                      : res.payload_ran ? ""
                      : res.signal      ? " (bwrap was killed)"
                                        : " (the sandbox did not run the command)";
    enum log_level level = res.timed_out                     ? LOG_WARNING
                           : !res.payload_ran && !res.signal ? LOG_ERROR
                                                             : LOG_INFO;
    log_event(l->log, level, "Sandbox exited with status %d%s after %.3f s", rc, how,
              (double)res.elapsed_ms / 1000);
    if (l->verbose)
        fprintf(stderr, "%s: status %d%s after %.3f s\n", l->prog, rc, how,
                (double)res.elapsed_ms / 1000);
out:
    free(err);
    free(bwrap);
    return rc;
}
