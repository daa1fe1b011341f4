/* compile.c - see compile.h. */
#include "compile.h"

#include "lower.h"
#include "passes.h"
#include "profile.h"

static struct plan_loc
key_loc(void *ctx, const char *key)
{
    const struct profile_doc *doc = ctx;
    const struct ynode *k = ymap_key(doc->tree, key);
    return ynode_loc(doc->file, k ? k : doc->tree);
}

int
compile_data(const char *file, const char *data, size_t len, const struct compile_options *opts,
             struct diag_sink *sink, struct plan *plan)
{
    struct profile_doc doc = {0};
    plan_init(plan);
    if (profile_load(file, data, len, sink, &doc) < 0)
        return -1;
    plan->target = opts->target;
    for (size_t i = 0; i < opts->n_command; i++)
        strv_push(&plan->command, opts->command[i]);
    unsigned errors = lower_profile(&doc, plan, sink);
    if (!errors)
        errors = pass_normalize(plan, sink);
    if (!errors && opts->adjust)
        errors = opts->adjust(plan, opts->adjust_ctx, sink);
    if (!errors)
        errors = pass_duplicates(plan, sink);
    if (!errors)
        errors = pass_sort(plan, sink);
    if (!errors && !opts->no_optimize)
        errors = pass_optimize(plan, sink);
    if (!errors)
        errors = pass_room(plan, sink);
    if (!errors)
        errors = pass_check(plan, sink, key_loc, &doc);
    if (!errors && opts->tree)
        *opts->tree = steal_pointer(&doc.tree);
    profile_doc_free(&doc);
    if (errors) {
        plan_free(plan);
        plan_init(plan);
        return -1;
    }
    return 0;
}

int
compile_file(const char *path, const struct compile_options *opts, struct diag_sink *sink,
             struct plan *plan)
{
    char *data = NULL;
    size_t len = 0;
    plan_init(plan);
    if (profile_read_file(path, sink, &data, &len) < 0)
        return -1;
    int r = compile_data(path, data, len, opts, sink, plan);
    free(data);
    return r;
}
