/* nookc.c - the policy compiler's command line. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../runtime/plan.h"
#include "compile.h"
#include "diag.h"
#include "emit.h"
#include "nookc-review.h"

enum exit_code {
    EXIT_OK = 0,
    EXIT_REJECTED = 1,
    EXIT_USAGE = 2,
};

enum emit_kind {
    EMIT_SH,
    EMIT_ARGV,
    EMIT_JSON,
};

static const char usage_text[] =
    "Usage: nookc [OPTIONS] PROFILE [-- COMMAND [ARGS...]]\n"
    "       nookc lint [OPTIONS] PROFILE...\n"
    "       nookc explain [--json] PROFILE\n"
    "       nookc diff [--json] [--fail-on-weaker] OLD NEW\n"
    "Compile an agent-nook sandbox profile into a bubblewrap launch, or review\n"
    "profiles (lint, explain, diff: see nookc SUBCOMMAND --help).\n"
    "\n"
    "  --emit sh|argv|json    output: POSIX sh launch script (default), the NUL-separated\n"
    "                         bwrap argument vector, or the JSON plan for nook-exec\n"
    "  -o, --output FILE      write to FILE atomically (scripts get mode 0755) instead of\n"
    "                         stdout; nothing is written when compilation fails\n"
    "  --check                only check the profile: diagnostics on stderr, no output\n"
    "  --target-bwrap VERSION refuse options newer than this bubblewrap (default 0.8.0)\n"
    "  --bwrap PATH           bwrap to use in scripts and plans (default: $NOOK_BWRAP,\n"
    "                         then PATH)\n"
    "  --no-optimize          keep binds that repeat what their parent already shows\n"
    "  --dump-ir              print the checked plan, one op per line, for debugging\n"
    "  -h, --help             show this help\n"
    "  --version              show the version\n"
    "\n"
    "A COMMAND after '--' is baked into the output. A profile file named like a\n"
    "subcommand (lint, explain, diff) is given with a path: nookc ./lint\n"
    "Exit status: 0 ok, 1 profile rejected, 2 usage or I/O error.\n";

#define usage_error(...) cli_error(EXIT_USAGE, "nookc", "nookc --help", __VA_ARGS__)

static void
dump_ir(const struct plan *plan, struct buf *out)
{
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        char *origin = plan_loc_str(&op->origin);
        buf_printf(out, "%-11s %s", plan_op_kind_name(op->kind), op->dest);
        if (op->source)
            buf_printf(out, " <- %s", op->source);
        if (op->size)
            buf_printf(out, " size=%llu", (unsigned long long)op->size);
        if (op->perms >= 0)
            buf_printf(out, " perms=%04o", (unsigned)op->perms);
        if (op->optional)
            buf_adds(out, " optional");
        buf_printf(out, "  [%s]\n", origin ? origin : "generated");
        free(origin);
    }
}

/* True when `prog` (a host path) is the same file at the same path in the sandbox. */
static bool
timeout_visible(const struct plan *plan, const char *prog)
{
    bool known;
    char *host = plan_host_path(plan, prog, &known);
    struct stat a, b;
    bool same = host && stat(host, &a) == 0 && stat(prog, &b) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino;
    free(host);
    return same;
}

/* Resolves the bwrap path for scripts: --bwrap, then $NOOK_BWRAP, then PATH. */
static char *
resolve_program(const char *explicit_path, const char *env, const char *name)
{
    const char *p = explicit_path ? explicit_path : (env ? getenv(env) : NULL);
    if (p && *p)
        return p[0] == '/' ? xstrdup(p) : NULL;
    return find_in_path(name);
}

static int
write_output(const char *path, const struct buf *data, unsigned mode)
{
    struct stat st;
    if (path && lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* rename() would replace a FIFO, a device node or a symlink with a file. */
        fprintf(stderr, "nookc: error: refusing to replace '%s': %s\n", path,
                S_ISLNK(st.st_mode) ? "it is a symbolic link" : "not a regular file");
        return EXIT_USAGE;
    }
    if (path) {
        if (write_file_atomic(path, data->data ? data->data : "", data->len, mode) < 0) {
            fprintf(stderr, "nookc: error: cannot write '%s': %s\n", path, strerror(errno));
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    if (write_all(STDOUT_FILENO, data->data ? data->data : "", data->len) < 0) {
        fprintf(stderr, "nookc: error: cannot write output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int
main(int argc, char **argv)
{
    /* The first word selects a review subcommand; anything else is a profile to
     * compile, as it always was (a profile file named "lint" is "./lint"). */
    if (argc > 1 && strcmp(argv[1], "lint") == 0)
        return review_lint_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "explain") == 0)
        return review_explain_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return review_diff_main(argc - 1, argv + 1);
    enum {
        OPT_EMIT = 256,
        OPT_CHECK,
        OPT_TARGET,
        OPT_BWRAP,
        OPT_DUMP,
        OPT_NO_OPT,
        OPT_VERSION,
    };
    static const struct option longopts[] = {
        {"emit", required_argument, NULL, OPT_EMIT},
        {"output", required_argument, NULL, 'o'},
        {"check", no_argument, NULL, OPT_CHECK},
        {"target-bwrap", required_argument, NULL, OPT_TARGET},
        {"bwrap", required_argument, NULL, OPT_BWRAP},
        {"dump-ir", no_argument, NULL, OPT_DUMP},
        {"no-optimize", no_argument, NULL, OPT_NO_OPT},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    /* Everything after the first "--" is the command, never options or the profile. */
    int nopts = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            nopts = i;
            break;
        }
    }
    enum emit_kind emit = EMIT_SH;
    const char *output = NULL, *bwrap_opt = NULL;
    bool check = false, dump = false;
    struct compile_options opts = {.target = {0, 8, 0}};
    opterr = 0;
    int c;
    while ((c = getopt_long(nopts, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_EMIT:
            if (strcmp(optarg, "sh") == 0)
                emit = EMIT_SH;
            else if (strcmp(optarg, "argv") == 0)
                emit = EMIT_ARGV;
            else if (strcmp(optarg, "json") == 0)
                emit = EMIT_JSON;
            else
                return usage_error("unknown output format '%s' (expected sh, argv or json)",
                                   optarg);
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_CHECK:
            check = true;
            break;
        case OPT_TARGET:
            if (plan_version_parse(optarg, &opts.target) < 0)
                return usage_error("invalid bubblewrap version '%s' (expected a version such "
                                   "as 0.8.0)",
                                   optarg);
            break;
        case OPT_BWRAP:
            if (optarg[0] != '/')
                return usage_error("--bwrap needs an absolute path, got '%s'", optarg);
            bwrap_opt = optarg;
            break;
        case OPT_DUMP:
            dump = true;
            break;
        case OPT_NO_OPT:
            opts.no_optimize = true;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return EXIT_OK;
        case OPT_VERSION:
            printf("nookc %s\n", NOOK_VERSION);
            return EXIT_OK;
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= nopts)
        return usage_error("%s", "no profile given");
    if (optind + 1 < nopts)
        return usage_error("unexpected argument '%s' (put the command after '--')",
                           argv[optind + 1]);
    const char *profile = argv[optind];
    if (nopts < argc) {
        opts.command = argv + nopts + 1;
        opts.n_command = (size_t)(argc - nopts - 1);
    }

    struct diag_sink sink;
    diag_init(&sink, stderr, "nookc");
    struct plan plan;
    if (compile_file(profile, &opts, &sink, &plan) < 0) {
        fprintf(stderr, "nookc: %u error%s\n", sink.errors, sink.errors == 1 ? "" : "s");
        plan_free(&plan);
        return EXIT_REJECTED;
    }
    if (check) {
        plan_free(&plan);
        return EXIT_OK;
    }

    struct buf out = {0};
    int rc = EXIT_OK;
    unsigned mode = 0644;
    if (dump) {
        dump_ir(&plan, &out);
    } else if (emit == EMIT_ARGV) {
        emit_argv(&plan, &out);
    } else if (emit == EMIT_JSON) {
        if (bwrap_opt)
            plan.bwrap = xstrdup(bwrap_opt);
        if (emit_json(&plan, &out) < 0) {
            fprintf(stderr, "nookc: error: the plan contains text that is not valid UTF-8\n");
            rc = EXIT_REJECTED;
        }
    } else {
        char *bwrap = resolve_program(bwrap_opt, "NOOK_BWRAP", "bwrap");
        char *timeout_prog = plan.timeout_ms ? find_in_path("timeout") : NULL;
        if (!bwrap) {
            fprintf(stderr, "nookc: error: bwrap not found (install bubblewrap, or pass "
                            "--bwrap PATH or set NOOK_BWRAP to an absolute path)\n");
            rc = EXIT_USAGE;
        } else if (plan.timeout_ms && !timeout_prog) {
            fprintf(stderr, "nookc: error: timeout(1) not found in PATH; the profile's "
                            "timeout cannot be enforced by a script\n");
            rc = EXIT_USAGE;
        } else {
            bool inside = timeout_prog && timeout_visible(&plan, timeout_prog);
            if (timeout_prog && !inside)
                fprintf(stderr,
                        "nookc: warning: '%s' is not visible inside the sandbox, so on "
                        "timeout the script kills the sandbox without sending SIGTERM to the "
                        "command first (nook-exec does both)\n",
                        timeout_prog);
            emit_sh(&plan, bwrap, timeout_prog, inside, &out);
            mode = 0755;
        }
        free(bwrap);
        free(timeout_prog);
    }
    if (rc == EXIT_OK)
        rc = write_output(output, &out, mode);
    buf_free(&out);
    plan_free(&plan);
    return rc;
}
