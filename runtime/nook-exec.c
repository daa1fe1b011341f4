/* nook-exec.c - run a compiled plan with the supervision bubblewrap lacks. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
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

#define usage_error(...) cli_error(2, "nook-exec", "nook-exec --help", __VA_ARGS__)

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
        fprintf(stderr, "nook-exec: error: %s\n", err);
        free(err);
        return RUN_EXIT_FAILURE;
    }
    int r = plan_from_json(plan_path, data, len, &plan, &err);
    free(data);
    if (r < 0) {
        fprintf(stderr, "nook-exec: %s\n", err); /* err has its own "error:" */
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

    struct log log;
    log_init(&log, "nook-exec");
    log_set_name(&log, plan.name);
    if (quiet)
        log.console = LOG_ERROR;
    struct launch l = {
        .prog = "nook-exec",
        .origin = plan_path,
        .dry_run = dry,
        .verbose = verbose,
        .grace_ms = grace_ms,
        .log = &log,
    };
    int rc = launch_plan(&plan, &l);
    log_free(&log);
    plan_free(&plan);
    return rc;
}
