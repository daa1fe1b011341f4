/* nook-exec.c - run a compiled plan with the supervision bubblewrap lacks. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "plan-json.h"
#include "run.h"

static const char usage_text[] =
    "Usage: nook-exec [OPTIONS] PLAN.json [-- COMMAND [ARGS...]]\n"
    "Run the sandbox a plan (nookc --emit json) describes.\n"
    "\n"
    "  --dry-run          print the bwrap command line (shell-quoted) and exit\n"
    "  --print-plan       print the validated plan as JSON and exit\n"
    "  --grace SECONDS    on timeout, time between SIGTERM to the payload and SIGKILL\n"
    "                     to the whole sandbox (default 5)\n"
    "  -q, --quiet        no warnings, only errors\n"
    "  -v, --verbose      also print the bwrap command and the run time on stderr\n"
    "  -h, --help         show this help\n"
    "  --version          show the version\n"
    "\n"
    "The command after '--' replaces the plan's.\n"
    "Exit status: the payload's; 128+N when it was killed by signal N; 124 timeout;\n"
    "125 nook-exec or the sandbox failed; 126 command not executable; 127 command not\n"
    "found; 2 usage error.\n";

static int usage_error(const char *fmt, ...) NOOK_PRINTF(1, 2);

static int
usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nook-exec: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'nook-exec --help' for more information.\n", stderr);
    va_end(ap);
    return 2;
}

static int fail(const char *fmt, ...) NOOK_PRINTF(1, 2);

static int
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nook-exec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return RUN_EXIT_FAILURE;
}

/* The command line as one shell-quoted string; --setenv values are masked when
 * `redact` (the log file must not collect secrets). */
static char *
command_line(const char *bwrap, const struct plan *plan, bool redact)
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

int
main(int argc, char **argv)
{
    enum { OPT_DRY = 256, OPT_PRINT, OPT_GRACE, OPT_VERSION };
    static const struct option longopts[] = {
        {"dry-run", no_argument, NULL, OPT_DRY},
        {"print-plan", no_argument, NULL, OPT_PRINT},
        {"grace", required_argument, NULL, OPT_GRACE},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    bool dry = false, print = false, quiet = false, verbose = false;
    uint64_t grace_ms = 5000;
    opterr = 0;
    int c;
    /* "+": options end at the plan; everything after "--" is the command. */
    while ((c = getopt_long(argc, argv, "+:qvh", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DRY:
            dry = true;
            break;
        case OPT_PRINT:
            print = true;
            break;
        case OPT_GRACE: {
            char *end;
            errno = 0;
            double g = strtod(optarg, &end);
            if (errno || *end || end == optarg || !(g >= 0) || g > 3600)
                return usage_error("invalid --grace '%s' (seconds, 0 to 3600)", optarg);
            grace_ms = (uint64_t)(g * 1000);
            break;
        }
        case 'q':
            quiet = true;
            break;
        case 'v':
            verbose = true;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        case OPT_VERSION:
            printf("nook-exec %s\n", NOOK_VERSION);
            return 0;
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage_error("no plan given");
    const char *plan_path = argv[optind++];
    char **cmd = NULL;
    int ncmd = 0;
    if (optind < argc) {
        if (strcmp(argv[optind], "--") != 0)
            return usage_error("unexpected argument '%s' (put the command after '--')",
                               argv[optind]);
        cmd = argv + optind + 1;
        ncmd = argc - optind - 1;
    }

    char *data = NULL, *err = NULL;
    size_t len = 0;
    struct plan plan;
    plan_init(&plan);
    if (plan_read_file(plan_path, &data, &len, &err) < 0) {
        fail("error: %s", err);
        free(err);
        return RUN_EXIT_FAILURE;
    }
    int r = plan_from_json(plan_path, data, len, &plan, &err);
    free(data);
    if (r < 0) {
        fail("%s", err);
        free(err);
        return RUN_EXIT_FAILURE;
    }
    if (print) {
        char *text = plan_to_json(&plan);
        fputs(text, stdout);
        free(text);
        plan_free(&plan);
        return fflush(stdout) == 0 ? 0 : RUN_EXIT_FAILURE;
    }
    if (ncmd > 0) {
        strv_free(&plan.command);
        for (int i = 0; i < ncmd; i++)
            strv_push(&plan.command, cmd[i]);
    }
    if (plan.command.n == 0) {
        plan_free(&plan);
        return usage_error("no command: give one after '--' (the plan has none)");
    }
    if (ncmd > 0 && !*plan.command.v[0]) {
        plan_free(&plan);
        return usage_error("the command must not be empty");
    }

    int rc = RUN_EXIT_FAILURE;
    char *bwrap = run_find_bwrap(plan.bwrap, &err);
    if (!bwrap) {
        fail("error: %s", err);
        goto out;
    }
    if (dry) {
        char *line = command_line(bwrap, &plan, false);
        printf("%s\n", line);
        free(line);
        rc = fflush(stdout) == 0 ? 0 : RUN_EXIT_FAILURE;
        goto out;
    }
    char *missing = run_missing_options(&plan, bwrap, &err);
    if (!missing) {
        fail("error: %s", err);
        goto out;
    }
    if (*missing) {
        fail("error: '%s' lacks %s, which the plan needs (compiled for bubblewrap %u.%u.%u)",
             bwrap, missing, plan.target.major, plan.target.minor, plan.target.patch);
        free(missing);
        goto out;
    }
    free(missing);
    if (run_prepare(&plan, &err) < 0) {
        fail("error: %s", err);
        goto out;
    }

    struct log log;
    char *log_path = log_default_path();
    log_init(&log, log_path, plan.name);
    free(log_path);
    char *line = command_line(bwrap, &plan, true);
    if (log_write(&log, "INFO", "Starting sandbox from %s: %s", plan_path, line) < 0 && !quiet)
        fprintf(stderr, "nook-exec: warning: cannot write the log '%s': %s\n",
                log.path ? log.path : "(no HOME)", strerror(errno));
    if (verbose) {
        char *full = command_line(bwrap, &plan, false);
        fprintf(stderr, "nook-exec: running %s\n", full);
        free(full);
    }
    free(line);

    struct run_options ro = {bwrap, grace_ms};
    struct run_result res;
    if (run_plan(&plan, &ro, &res, &err) < 0) {
        fail("error: %s", err);
        log_write(&log, "ERROR", "Sandbox not started: %s", err);
        log_free(&log);
        goto out;
    }
    rc = res.status;
    const char *how = res.timed_out     ? " (timed out)"
                      : res.payload_ran ? ""
                      : res.signal      ? " (bwrap killed)"
                                        : " (the sandbox did not run the command)";
    if (res.timed_out && !quiet)
        fprintf(stderr, "nook-exec: timed out after %.3f s\n", (double)plan.timeout_ms / 1000);
    log_write(&log, rc == 0 ? "INFO" : "WARNING",
              "Sandbox exited with status %d%s after %.3f s", rc, how,
              (double)res.elapsed_ms / 1000);
    if (verbose)
        fprintf(stderr, "nook-exec: status %d%s after %.3f s\n", rc, how,
                (double)res.elapsed_ms / 1000);
    log_free(&log);
out:
    free(err);
    free(bwrap);
    plan_free(&plan);
    return rc;
}
