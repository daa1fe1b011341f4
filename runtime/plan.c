/* plan.c - plan model and the one plan -> bwrap arguments lowering. */
#include "plan.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

static const char *const op_names[] = {
#define X(e, name, opt) name,
    PLAN_OP_KINDS(X)
#undef X
};

static const char *const op_options[] = {
#define X(e, name, opt) opt,
    PLAN_OP_KINDS(X)
#undef X
};

const char *const plan_ns_names[PLAN_NS_COUNT] = {"pid",    "uts",  "ipc",
                                                  "cgroup", "user", "network"};

static const char *const ns_options[PLAN_NS_COUNT] = {"--unshare-pid",  "--unshare-uts",
                                                      "--unshare-ipc",  "--unshare-cgroup",
                                                      "--unshare-user", "--unshare-net"};

const char *
plan_op_kind_name(enum plan_op_kind kind)
{
    return op_names[kind];
}

int
plan_op_kind_from_name(const char *name)
{
    for (int i = 0; i < PLAN_OP_KIND_COUNT; i++)
        if (strcmp(op_names[i], name) == 0)
            return i;
    return -1;
}

void
plan_init(struct plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->target = (struct plan_version){0, 8, 0};
    plan->die_with_parent = true;
    plan->new_session = true;
}

void
plan_op_free(struct plan_op *op)
{
    free(op->source);
    free(op->dest);
    free(op->workdir);
    strv_free(&op->layers);
    free(op->origin.file);
    free(op->src_origin.file);
    memset(op, 0, sizeof *op);
}

void
plan_free(struct plan *plan)
{
    for (size_t i = 0; i < plan->n_ops; i++)
        plan_op_free(&plan->ops[i]);
    free(plan->ops);
    free(plan->name);
    free(plan->profile);
    free(plan->bwrap);
    free(plan->hostname);
    free(plan->chdir);
    strv_free(&plan->cap_add);
    strv_free(&plan->cap_drop);
    strv_free(&plan->unsetenv);
    strv_free(&plan->setenv_names);
    strv_free(&plan->setenv_values);
    strv_free(&plan->command);
    memset(plan, 0, sizeof *plan);
}

struct plan_op *
plan_add_op(struct plan *plan, enum plan_op_kind kind)
{
    plan->ops = xgrow(plan->ops, &plan->cap_ops, plan->n_ops + 1, sizeof *plan->ops);
    struct plan_op *op = &plan->ops[plan->n_ops];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->perms = -1;
    op->decl = plan->n_ops;
    plan->n_ops++;
    return op;
}

void
plan_loc_set(struct plan_loc *loc, const char *file, unsigned line, unsigned col)
{
    free(loc->file);
    loc->file = file ? xstrdup(file) : NULL;
    loc->line = line;
    loc->col = col;
}

void
plan_loc_copy(struct plan_loc *dst, const struct plan_loc *src)
{
    plan_loc_set(dst, src->file, src->line, src->col);
}

char *
plan_loc_str(const struct plan_loc *loc)
{
    if (!loc->file)
        return NULL;
    if (loc->line == 0) /* not from a file: the text says where ("--bind /a:/b") */
        return xstrdup(loc->file);
    return xasprintf("%s:%u:%u", loc->file, loc->line, loc->col);
}

int
plan_version_parse(const char *s, struct plan_version *out)
{
    unsigned v[3] = {0, 0, 0};
    int i = 0;
    const char *p = s;
    for (;;) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned long n = 0;
        while (*p >= '0' && *p <= '9') {
            n = n * 10 + (unsigned)(*p - '0');
            if (n > 9999)
                return -1;
            p++;
        }
        v[i++] = (unsigned)n;
        if (*p == '\0')
            break;
        if (*p != '.' || i == 3)
            return -1;
        p++;
    }
    if (i < 2)
        return -1;
    *out = (struct plan_version){v[0], v[1], v[2]};
    return 0;
}

int
plan_version_cmp(const struct plan_version *a, const struct plan_version *b)
{
    if (a->major != b->major)
        return a->major < b->major ? -1 : 1;
    if (a->minor != b->minor)
        return a->minor < b->minor ? -1 : 1;
    if (a->patch != b->patch)
        return a->patch < b->patch ? -1 : 1;
    return 0;
}

/* The release that introduced each option we emit (bubblewrap NEWS / git tags). */
static const struct {
    const char *option;
    struct plan_version since;
} option_since[] = {
    {"--bind", {0, 1, 0}},
    {"--ro-bind", {0, 1, 0}},
    {"--dev-bind", {0, 1, 0}},
    {"--bind-try", {0, 3, 1}},
    {"--ro-bind-try", {0, 3, 1}},
    {"--dev-bind-try", {0, 3, 1}},
    {"--tmpfs", {0, 1, 0}},
    {"--proc", {0, 1, 0}},
    {"--dev", {0, 1, 0}},
    {"--dir", {0, 1, 0}},
    {"--symlink", {0, 1, 0}},
    {"--remount-ro", {0, 1, 3}},
    {"--overlay-src", {0, 11, 0}},
    {"--overlay", {0, 11, 0}},
    {"--ro-overlay", {0, 11, 0}},
    {"--tmp-overlay", {0, 11, 0}},
    {"--perms", {0, 5, 0}},
    {"--size", {0, 7, 0}},
    {"--unshare-pid", {0, 1, 0}},
    {"--unshare-uts", {0, 1, 0}},
    {"--unshare-ipc", {0, 1, 0}},
    {"--unshare-cgroup", {0, 1, 0}},
    {"--unshare-user", {0, 1, 0}},
    {"--unshare-net", {0, 1, 0}},
    {"--hostname", {0, 1, 3}},
    {"--cap-drop", {0, 2, 0}},
    {"--cap-add", {0, 2, 0}},
    {"--clearenv", {0, 5, 0}},
    {"--unsetenv", {0, 1, 0}},
    {"--setenv", {0, 1, 0}},
    {"--chdir", {0, 1, 0}},
    {"--die-with-parent", {0, 1, 8}},
    {"--new-session", {0, 1, 7}},
    {"--args", {0, 1, 0}},
    {"--json-status-fd", {0, 3, 2}},
};

const struct plan_version *
plan_bwrap_option_since(const char *option)
{
    for (size_t i = 0; i < sizeof option_since / sizeof option_since[0]; i++)
        if (strcmp(option_since[i].option, option) == 0)
            return &option_since[i].since;
    return NULL;
}

/* The lowering writes every option through emit(), which hands it to the walker's
 * callback, so arguments, the options used and the compiler's check share one lowering. */
struct lowering {
    plan_option_fn *fn;
    void *ctx;
    const struct plan_op *op; /* the op being lowered; NULL for plan-wide options */
};

/* Hands `option` and its operands (NULL-terminated, at most three) to the callback. */
static void
emit(struct lowering *l, const char *option, ...)
{
    const char *words[4] = {option};
    size_t n = 1;
    va_list ap;
    va_start(ap, option);
    for (const char *a; (a = va_arg(ap, const char *));) {
        assert(n < sizeof words / sizeof words[0]);
        words[n++] = a;
    }
    va_end(ap);
    l->fn(l->ctx, l->op, words, n);
}

static void
lower_op(struct lowering *l, const struct plan_op *op)
{
    const char *opt = op_options[op->kind];
    l->op = op;
    switch (op->kind) {
    case PLAN_OP_BIND:
    case PLAN_OP_RO_BIND:
    case PLAN_OP_DEV_BIND:
        if (op->optional) {
            char *try_opt = xasprintf("%s-try", opt);
            emit(l, try_opt, op->source, op->dest, NULL);
            free(try_opt);
        } else {
            emit(l, opt, op->source, op->dest, NULL);
        }
        break;
    case PLAN_OP_TMPFS:
    case PLAN_OP_DIR:
        /* Modifiers apply to the next option only, so they travel with their op. */
        if (op->perms >= 0) {
            char perms[16];
            snprintf(perms, sizeof perms, "%04o", (unsigned)op->perms);
            emit(l, "--perms", perms, NULL);
        }
        if (op->kind == PLAN_OP_TMPFS && op->size > 0) {
            char size[32];
            snprintf(size, sizeof size, "%" PRIu64, op->size);
            emit(l, "--size", size, NULL);
        }
        emit(l, opt, op->dest, NULL);
        break;
    case PLAN_OP_PROC:
    case PLAN_OP_DEV:
    case PLAN_OP_REMOUNT_RO:
        emit(l, opt, op->dest, NULL);
        break;
    case PLAN_OP_SYMLINK:
        emit(l, opt, op->source, op->dest, NULL);
        break;
    case PLAN_OP_OVERLAY:
    case PLAN_OP_RO_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
        /* bwrap takes layers bottom first, the reverse of the kernel's lowerdir. */
        for (size_t i = 0; i < op->layers.n; i++)
            emit(l, "--overlay-src", op->layers.v[i], NULL);
        if (op->kind == PLAN_OP_OVERLAY)
            emit(l, opt, op->source, op->workdir, op->dest, NULL);
        else
            emit(l, opt, op->dest, NULL);
        break;
    }
    l->op = NULL;
}

void
plan_lower(const struct plan *plan, plan_option_fn *fn, void *ctx)
{
    struct lowering lw = {fn, ctx, NULL}, *l = &lw;
    if (plan->die_with_parent)
        emit(l, "--die-with-parent", NULL);
    if (plan->new_session)
        emit(l, "--new-session", NULL);
    for (size_t i = 0; i < plan->n_ops; i++)
        lower_op(l, &plan->ops[i]);
    /* Root (uid 0) keeps every capability unless told otherwise, also inside a user
     * namespace, so the drop is unconditional and comes before any add. */
    emit(l, "--cap-drop", "ALL", NULL);
    for (size_t i = 0; i < plan->cap_add.n; i++)
        emit(l, "--cap-add", plan->cap_add.v[i], NULL);
    for (size_t i = 0; i < plan->cap_drop.n; i++)
        emit(l, "--cap-drop", plan->cap_drop.v[i], NULL);
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        if (plan->namespaces & (1u << i))
            emit(l, ns_options[i], NULL);
    if (plan->hostname)
        emit(l, "--hostname", plan->hostname, NULL);
    /* bwrap applies environment options while parsing, in order: clear first, then
     * unset, then set, or a later clear would undo the sets. */
    if (plan->clearenv)
        emit(l, "--clearenv", NULL);
    for (size_t i = 0; i < plan->unsetenv.n; i++)
        emit(l, "--unsetenv", plan->unsetenv.v[i], NULL);
    for (size_t i = 0; i < plan->setenv_names.n; i++)
        emit(l, "--setenv", plan->setenv_names.v[i], plan->setenv_values.v[i], NULL);
    if (plan->chdir)
        emit(l, "--chdir", plan->chdir, NULL);
}

static void
push_words(void *ctx, const struct plan_op *op, const char *const *words, size_t n)
{
    (void)op;
    for (size_t i = 0; i < n; i++)
        strv_push(ctx, words[i]);
}

void
plan_bwrap_args(const struct plan *plan, struct strv *out)
{
    plan_lower(plan, push_words, out);
}

static void
push_new_option(void *ctx, const struct plan_op *op, const char *const *words, size_t n)
{
    (void)op, (void)n;
    if (!strv_has(ctx, words[0]))
        strv_push(ctx, words[0]);
}

void
plan_bwrap_options_used(const struct plan *plan, struct strv *options)
{
    plan_lower(plan, push_new_option, options);
}

void
plan_bwrap_command(const struct plan *plan, struct strv *out)
{
    /* "--" always: a command named like an option (--bind ...) must never be parsed by
     * bwrap (CVE-2024-32462 class). */
    strv_push(out, "--");
    for (size_t i = 0; i < plan->command.n; i++)
        strv_push(out, plan->command.v[i]);
}

char *
plan_host_path(const struct plan *plan, const char *p, bool *known)
{
    *known = true;
    for (size_t i = plan->n_ops; i-- > 0;) {
        const struct plan_op *op = &plan->ops[i];
        if (op->kind == PLAN_OP_REMOUNT_RO || op->kind == PLAN_OP_DIR)
            continue;
        if (strcmp(op->dest, p) != 0 && !path_is_ancestor(op->dest, p))
            continue;
        switch (op->kind) {
        case PLAN_OP_BIND:
        case PLAN_OP_RO_BIND:
        case PLAN_OP_DEV_BIND: {
            const char *rel = strcmp(op->dest, "/") == 0 ? p : p + strlen(op->dest);
            return xasprintf("%s%s", strcmp(op->source, "/") == 0 ? "" : op->source, rel);
        }
        case PLAN_OP_TMPFS:
        case PLAN_OP_PROC:
        case PLAN_OP_DEV:
            return NULL;
        case PLAN_OP_SYMLINK:
        case PLAN_OP_OVERLAY:
        case PLAN_OP_RO_OVERLAY:
        case PLAN_OP_TMP_OVERLAY:
        case PLAN_OP_DIR:
        case PLAN_OP_REMOUNT_RO:
            *known = false;
            return NULL;
        }
    }
    return NULL; /* bwrap's empty root */
}

char *
plan_format_seconds(uint64_t ms)
{
    uint64_t s = ms / 1000, frac = ms % 1000;
    if (frac == 0)
        return xasprintf("%" PRIu64, s);
    char *r = xasprintf("%" PRIu64 ".%03" PRIu64, s, frac);
    size_t n = strlen(r);
    while (r[n - 1] == '0')
        r[--n] = '\0';
    return r;
}
