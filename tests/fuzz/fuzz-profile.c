/* fuzz-profile.c - libFuzzer target: the YAML front end through every pass and emitter.
 *
 * For every input: no crash, no leak, every diagnostic position lies inside the input.
 * For every accepted profile: the argv invariants hold (absolute canonical paths,
 * parents before children, "--" before the command, --cap-drop ALL present, at most
 * 9000 arguments each under 128 KiB), compiling again gives the same plan, and lint's
 * findings lie inside the input, in order, none suppressed unless the text holds a
 * suppression comment.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/compile.h"
#include "../../compiler/emit.h"
#include "../../compiler/lint.h"
#include "../../compiler/yamltree.h"
#include "../../runtime/names.h"
#include "../../runtime/plan-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lines of the input as libyaml counts them: LF, CR, CR LF, NEL, LS, PS break lines.
 * Written out here, not with yamltree's helper, so the harness checks it. */
static unsigned
count_lines(const char *input, size_t size)
{
    unsigned lines = 1;
    const unsigned char *u = (const unsigned char *)input;
    for (size_t i = 0; i < size; i++) {
        if (u[i] == '\n' || (u[i] == '\r' && (i + 1 >= size || u[i + 1] != '\n')))
            lines++;
        else if (i + 1 < size && u[i] == 0xC2 && u[i + 1] == 0x85)
            lines++;
        else if (i + 2 < size && u[i] == 0xE2 && u[i + 1] == 0x80 &&
                 (u[i + 2] == 0xA8 || u[i + 2] == 0xA9))
            lines++;
    }
    return lines;
}

static void
check_positions(const char *diags, const char *input, size_t size)
{
    unsigned lines = count_lines(input, size);
    const char *p = diags;
    while (p && *p) {
        unsigned line, col;
        if (strncmp(p, "f.yaml:", 7) == 0 && sscanf(p + 7, "%u:%u:", &line, &col) == 2) {
            if (line < 1 || line > lines || col < 1) {
                fprintf(stderr, "position %u:%u outside the input (%u lines):\n%s", line, col,
                        lines, diags);
                abort();
            }
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
}

static void
check_plan(const struct plan *plan)
{
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        char *norm = NULL;
        const char *why;
        if (path_normalize(op->dest, &norm, &why) < 0 || strcmp(norm, op->dest) != 0)
            abort(); /* dest not absolute and canonical */
        free(norm);
        /* parents before children: no later op may be an ancestor of this one */
        for (size_t k = i + 1; k < plan->n_ops; k++)
            if (plan->ops[k].kind != PLAN_OP_REMOUNT_RO &&
                path_is_ancestor(plan->ops[k].dest, op->dest))
                abort();
    }
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    plan_bwrap_command(plan, &argv);
    bool cap_drop_all = false, dashdash = false;
    for (size_t i = 0; i < argv.n; i++) {
        if (strlen(argv.v[i]) >= PLAN_MAX_ARG_LEN)
            abort();
        if (i + 1 < argv.n && strcmp(argv.v[i], "--cap-drop") == 0 &&
            strcmp(argv.v[i + 1], "ALL") == 0)
            cap_drop_all = true;
        if (strcmp(argv.v[i], "--") == 0 && argv.n - i - 1 == plan->command.n)
            dashdash = true;
    }
    if (!cap_drop_all || !dashdash || argv.n + 1 > PLAN_MAX_ARGS)
        abort();
    strv_free(&argv);
}

static void
check_lint(const char *input, size_t size, const struct plan *plan, const struct ynode *tree)
{
    unsigned lines = count_lines(input, size);
    struct lint_env env = {.home = "/home/fuzz", .presets = LINT_PRESET_AGENT | LINT_PRESET_CI};
    struct lint_report rep;
    lint_run("f.yaml", input, size, plan, tree, &env, &rep);
    bool directive = memmem(input, size, "nook-lint", 9) != NULL;
    for (size_t i = 0; i < rep.n; i++) {
        const struct lint_finding *f = &rep.findings[i];
        if (f->rule >= lint_rule_count || !f->message || !f->fix || f->line < 1 ||
            f->line > lines || f->col < 1 || (f->justification && !directive))
            abort();
        const struct lint_finding *prev = i ? &rep.findings[i - 1] : NULL;
        if (prev && (prev->line > f->line || (prev->line == f->line && prev->col > f->col)))
            abort();
        char *fp = lint_fingerprint(&rep, i);
        if (!fp || strlen(fp) != 16)
            abort();
        free(fp);
    }
    lint_report_free(&rep);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool env_set;
    if (!env_set) {
        setenv("HOME", "/home/fuzz", 1);
        setenv("PWD", "/home/fuzz/project", 1);
        env_set = true;
    }
    char *input = malloc(size + 1);
    memcpy(input, data, size);
    input[size] = '\0';
    char *diags = NULL;
    size_t dlen = 0;
    FILE *out = open_memstream(&diags, &dlen);
    struct diag_sink sink;
    diag_init(&sink, out, "nookc");
    struct compile_options opts = {.target = {0, 11, 1}};
    char *cmd[] = {(char *)"--cmd", (char *)"arg"};
    opts.command = cmd;
    opts.n_command = 2;
    struct ynode *tree = NULL;
    opts.tree = &tree;
    struct plan plan;
    int r = compile_data("f.yaml", input, size, &opts, &sink, &plan);
    fclose(out);
    check_positions(diags, input, size);
    if (r == 0) {
        check_plan(&plan);
        check_lint(input, size, &plan, tree);
        char *first = plan_to_json(&plan);
        struct plan again;
        opts.tree = NULL;
        FILE *sinkout = fopen("/dev/null", "w");
        struct diag_sink s2;
        diag_init(&s2, sinkout, "nookc");
        if (compile_data("f.yaml", input, size, &opts, &s2, &again) != 0)
            abort(); /* not deterministic */
        fclose(sinkout);
        char *second = plan_to_json(&again);
        if ((first == NULL) != (second == NULL) || (first && strcmp(first, second) != 0))
            abort();
        struct buf sh = {0};
        emit_sh(&plan, "/usr/bin/bwrap", "/usr/bin/timeout", true, &sh);
        buf_free(&sh);
        free(first);
        free(second);
        plan_free(&again);
    }
    if (r != 0 && sink.errors == 0)
        abort(); /* rejected without saying why */
    plan_free(&plan);
    ynode_free(tree);
    free(diags);
    free(input);
    return 0;
}
