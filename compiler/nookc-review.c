/* nookc-review.c - see nookc-review.h. */
#include "nookc-review.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "diff.h"
#include "explain.h"
#include "lint-output.h"
#include "lint.h"
#include "profile.h"
#include "yamltree.h"

enum {
    EXIT_OK = 0,
    EXIT_REJECTED = 1,
    EXIT_USAGE = 2,
};

static const char lint_usage[] =
    "Usage: nookc lint [OPTIONS] PROFILE...\n"
    "Check sandbox profiles against the policy rules (see --list-rules).\n"
    "\n"
    "  --format text|json|sarif  report format (default text; SARIF 2.1.0 for code\n"
    "                            scanning)\n"
    "  --fail-on error|warning|info\n"
    "                            exit 1 when a finding of this severity or higher is\n"
    "                            not suppressed (default error)\n"
    "  --preset agent|ci         agent: network sharing, no pid namespace and writable\n"
    "                            persistence paths are errors; ci: no timeout is a\n"
    "                            warning (may be repeated)\n"
    "  --list-rules              list the rules (id, severity, rationale) and exit\n"
    "  --target-bwrap VERSION    as for nookc (default 0.8.0)\n"
    "  -h, --help                show this help\n"
    "\n"
    "Suppress a finding with a comment on its line or on the lines right above it:\n"
    "  # nook-lint: allow NKL-FS-004 -- reason\n"
    "Exit status: 0 nothing reaches --fail-on, 1 findings or a profile rejected,\n"
    "2 usage or I/O error.\n";

static const char explain_usage[] =
    "Usage: nookc explain [--json] [--target-bwrap VERSION] PROFILE\n"
    "Show what the sandbox can see and do: the paths in mount order with their access and\n"
    "origin, then namespaces, capabilities, environment, hostname, working directory,\n"
    "timeout and network.\n"
    "\n"
    "  --json                    the same as JSON\n"
    "  --target-bwrap VERSION    as for nookc (default 0.8.0)\n"
    "  -h, --help                show this help\n"
    "Exit status: 0 ok, 1 profile rejected, 2 usage or I/O error.\n";

static const char diff_usage[] =
    "Usage: nookc diff [--json] [--fail-on-weaker] [--target-bwrap VERSION] OLD NEW\n"
    "Show the effective difference between two profiles, each change marked weaker\n"
    "(NEW grants more), stronger or changed.\n"
    "\n"
    "  --json                    the same as JSON\n"
    "  --fail-on-weaker          exit 1 when NEW grants anything OLD did not\n"
    "  --target-bwrap VERSION    as for nookc (default 0.8.0)\n"
    "  -h, --help                show this help\n"
    "Exit status: 0 ok, 1 a weaker change with --fail-on-weaker or a profile rejected,\n"
    "2 usage or I/O error.\n";

/* Where the help of subcommand cmd ("lint", "explain" or "diff") is. */
static const char *
help_of(const char *cmd)
{
    return strcmp(cmd, "lint") == 0      ? "nookc lint --help"
           : strcmp(cmd, "explain") == 0 ? "nookc explain --help"
                                         : "nookc diff --help";
}

#define usage_error(cmd, ...) cli_error(EXIT_USAGE, "nookc", help_of(cmd), __VA_ARGS__)

static int
write_stdout(const struct buf *b)
{
    if (write_all(STDOUT_FILENO, b->data ? b->data : "", b->len) < 0) {
        fprintf(stderr, "nookc: error: cannot write output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* A profile read, compiled and with its locator tree. */
struct loaded {
    char *text;
    size_t len;
    struct plan plan;
    struct ynode *tree;
};

/* Returns EXIT_OK, EXIT_REJECTED (diagnostics printed) or EXIT_USAGE (unreadable). */
static int
load(const char *path, const struct plan_version *target, struct loaded *out)
{
    memset(out, 0, sizeof *out);
    plan_init(&out->plan);
    struct diag_sink sink;
    diag_init(&sink, stderr, "nookc");
    if (profile_read_file(path, &sink, &out->text, &out->len) < 0)
        return EXIT_USAGE;
    struct compile_options opts = {.target = *target, .tree = &out->tree};
    if (compile_data(path, out->text, out->len, &opts, &sink, &out->plan) < 0) {
        fprintf(stderr, "nookc: %u error%s\n", sink.errors, sink.errors == 1 ? "" : "s");
        return EXIT_REJECTED;
    }
    return EXIT_OK;
}

static void
loaded_free(struct loaded *l)
{
    free(l->text);
    plan_free(&l->plan);
    ynode_free(l->tree);
    memset(l, 0, sizeof *l);
}

static int
parse_target(const char *cmd, const char *arg, struct plan_version *out)
{
    if (plan_version_parse(arg, out) < 0)
        return usage_error(
            cmd, "invalid bubblewrap version '%s' (expected a version such as 0.8.0)", arg);
    return EXIT_OK;
}

enum {
    OPT_FORMAT = 256,
    OPT_FAIL_ON,
    OPT_PRESET,
    OPT_LIST_RULES,
    OPT_TARGET,
    OPT_JSON,
    OPT_FAIL_ON_WEAKER,
};

/* Shared getopt handling of ':' and unknown options. */
#define bad_option(cmd, c, argv)                                                               \
    ((c) == ':' ? usage_error(cmd, "option '%s' needs a value", (argv)[optind - 1])            \
                : usage_error(cmd, "unknown option '%s'", (argv)[optind - 1]))

/* ---- lint ------------------------------------------------------------------------------- */

int
review_lint_main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"preset", required_argument, NULL, OPT_PRESET},
        {"list-rules", no_argument, NULL, OPT_LIST_RULES},
        {"target-bwrap", required_argument, NULL, OPT_TARGET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    enum { FMT_TEXT, FMT_JSON, FMT_SARIF } format = FMT_TEXT;
    enum lint_severity fail_on = LINT_ERROR;
    unsigned presets = 0;
    bool list_rules = false;
    struct plan_version target = {0, 8, 0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                format = FMT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                format = FMT_JSON;
            else if (strcmp(optarg, "sarif") == 0)
                format = FMT_SARIF;
            else
                return usage_error("lint", "unknown format '%s' (expected text, json or sarif)",
                                   optarg);
            break;
        case OPT_FAIL_ON:
            if (lint_severity_parse(optarg, &fail_on) < 0)
                return usage_error(
                    "lint", "unknown severity '%s' (expected error, warning or info)", optarg);
            break;
        case OPT_PRESET:
            if (strcmp(optarg, "agent") == 0)
                presets |= LINT_PRESET_AGENT;
            else if (strcmp(optarg, "ci") == 0)
                presets |= LINT_PRESET_CI;
            else
                return usage_error("lint", "unknown preset '%s' (expected agent or ci)",
                                   optarg);
            break;
        case OPT_LIST_RULES:
            list_rules = true;
            break;
        case OPT_TARGET:
            if (parse_target("lint", optarg, &target))
                return EXIT_USAGE;
            break;
        case 'h':
            fputs(lint_usage, stdout);
            return EXIT_OK;
        default:
            return bad_option("lint", c, argv);
        }
    }
    struct buf out = {0};
    if (list_rules) {
        if (optind < argc)
            return usage_error("lint", "--list-rules takes no profile");
        if (format == FMT_TEXT)
            lint_output_rules_text(presets, &out);
        else
            lint_output_rules_json(presets, &out);
        int rc = write_stdout(&out);
        buf_free(&out);
        return rc;
    }
    if (optind >= argc)
        return usage_error("lint", "no profile given");

    size_t n = (size_t)(argc - optind);
    struct lint_report *reports = xcalloc(n, sizeof *reports);
    bool *compiled = xcalloc(n, sizeof *compiled);
    struct lint_env env = {getenv("HOME"), getenv("SSH_AUTH_SOCK"), presets};
    int rc = EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        const char *path = argv[optind + (int)i];
        struct loaded l;
        int r = load(path, &target, &l);
        if (r == EXIT_OK) {
            lint_run(path, l.text, l.len, &l.plan, l.tree, &env, &reports[i]);
            compiled[i] = true;
        } else {
            reports[i].file = xstrdup(path);
            if (r > rc)
                rc = r;
        }
        loaded_free(&l);
    }

    size_t count[3] = {0, 0, 0}, suppressed = 0;
    bool failing = false;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < reports[i].n; k++) {
            const struct lint_finding *f = &reports[i].findings[k];
            if (f->justification) {
                suppressed++;
                continue;
            }
            count[f->severity]++;
            if (f->severity >= fail_on)
                failing = true;
        }
    }
    if (failing && rc == EXIT_OK)
        rc = EXIT_REJECTED;

    struct lint_run_info info = {fail_on, presets, compiled};
    int enc = 0;
    if (format == FMT_TEXT)
        lint_output_text(reports, n, &out);
    else if (format == FMT_JSON)
        enc = lint_output_json(reports, n, &info, &out);
    else
        enc = lint_output_sarif(reports, n, &info, &out);
    if (enc < 0) {
        fprintf(stderr, "nookc: error: cannot encode the report\n");
        rc = EXIT_USAGE;
    } else if (write_stdout(&out) != EXIT_OK) {
        rc = EXIT_USAGE;
    }
    fprintf(stderr, "nookc lint: %zu error%s, %zu warning%s, %zu info, %zu suppressed\n",
            count[LINT_ERROR], count[LINT_ERROR] == 1 ? "" : "s", count[LINT_WARNING],
            count[LINT_WARNING] == 1 ? "" : "s", count[LINT_INFO], suppressed);
    buf_free(&out);
    for (size_t i = 0; i < n; i++)
        lint_report_free(&reports[i]);
    free(reports);
    free(compiled);
    return rc;
}

/* ---- explain ------------------------------------------------------------------------------
 */

int
review_explain_main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"target-bwrap", required_argument, NULL, OPT_TARGET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    struct plan_version target = {0, 8, 0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
            json = true;
            break;
        case OPT_TARGET:
            if (parse_target("explain", optarg, &target))
                return EXIT_USAGE;
            break;
        case 'h':
            fputs(explain_usage, stdout);
            return EXIT_OK;
        default:
            return bad_option("explain", c, argv);
        }
    }
    if (optind >= argc)
        return usage_error("explain", "no profile given");
    if (optind + 1 < argc)
        return usage_error("explain", "unexpected argument '%s' (one profile at a time)",
                           argv[optind + 1]);
    struct loaded l;
    int rc = load(argv[optind], &target, &l);
    if (rc == EXIT_OK) {
        struct buf out = {0};
        if (json) {
            if (explain_json(&l.plan, l.tree, &out) < 0) {
                fprintf(stderr, "nookc: error: cannot encode the report\n");
                rc = EXIT_USAGE;
            }
        } else {
            explain_text(&l.plan, l.tree, &out);
        }
        if (rc == EXIT_OK)
            rc = write_stdout(&out);
        buf_free(&out);
    }
    loaded_free(&l);
    return rc;
}

/* ---- diff ---------------------------------------------------------------------------------
 */

int
review_diff_main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"fail-on-weaker", no_argument, NULL, OPT_FAIL_ON_WEAKER},
        {"target-bwrap", required_argument, NULL, OPT_TARGET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false, fail_on_weaker = false;
    struct plan_version target = {0, 8, 0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
            json = true;
            break;
        case OPT_FAIL_ON_WEAKER:
            fail_on_weaker = true;
            break;
        case OPT_TARGET:
            if (parse_target("diff", optarg, &target))
                return EXIT_USAGE;
            break;
        case 'h':
            fputs(diff_usage, stdout);
            return EXIT_OK;
        default:
            return bad_option("diff", c, argv);
        }
    }
    if (argc - optind != 2)
        return usage_error("diff", "expected two profiles, OLD and NEW (got %d)",
                           argc - optind);
    const char *old_path = argv[optind], *new_path = argv[optind + 1];
    struct loaded a, b;
    int ra = load(old_path, &target, &a);
    int rb = load(new_path, &target, &b);
    int rc = ra > rb ? ra : rb;
    if (rc == EXIT_OK) {
        struct diff d;
        diff_plans(&a.plan, a.tree, &b.plan, b.tree, &d);
        struct buf out = {0};
        if (json) {
            if (diff_json(&d, old_path, new_path, &out) < 0) {
                fprintf(stderr, "nookc: error: cannot encode the report\n");
                rc = EXIT_USAGE;
            }
        } else {
            diff_text(&d, &out);
        }
        if (rc == EXIT_OK)
            rc = write_stdout(&out);
        if (rc == EXIT_OK && fail_on_weaker && d.count[DIFF_WEAKER])
            rc = EXIT_REJECTED;
        buf_free(&out);
        diff_free(&d);
    }
    loaded_free(&a);
    loaded_free(&b);
    return rc;
}
