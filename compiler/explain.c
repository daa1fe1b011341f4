/* explain.c - see explain.h. */
#include "explain.h"

#include <string.h>

#include "diag.h"
#include "report.h"
#include "view.h"
#include "yamltree.h"

const char *
explain_access(const struct plan *plan, size_t i)
{
    const struct plan_op *op = &plan->ops[i];
    switch (op->kind) {
    case PLAN_OP_BIND:
        return "rw";
    case PLAN_OP_RO_BIND:
        return "ro";
    case PLAN_OP_DEV_BIND:
        return "device";
    case PLAN_OP_TMPFS: {
        if (view_room_made(plan, i))
            return "tmpfs";
        /* Over host files (a room-made tmpfs stands for the read-only bind it opened
         * up) a tmpfs hides them. */
        size_t u = view_decider(plan, op->dest, i);
        bool host =
            u != VIEW_NONE && (view_host_backed(&plan->ops[u]) || view_room_made(plan, u));
        return host ? "hidden" : "tmpfs";
    }
    case PLAN_OP_PROC:
        return "proc";
    case PLAN_OP_DEV:
        return "dev";
    case PLAN_OP_DIR:
        return "dir";
    case PLAN_OP_SYMLINK:
        return "symlink";
    case PLAN_OP_OVERLAY:
        return "overlay";
    case PLAN_OP_RO_OVERLAY:
        return "ro-overlay";
    case PLAN_OP_TMP_OVERLAY:
        return "tmp-overlay";
    case PLAN_OP_REMOUNT_RO:
        return "ro";
    }
    return "?";
}

const char *
explain_env_as_written(const struct ynode *tree, const char *name)
{
    const struct ynode *env = ymap_get(tree, "env_vars");
    if (!env || env->type != YNODE_MAP)
        return NULL;
    const struct ynode *v = ymap_get(env, name);
    return v && v->type == YNODE_SCALAR ? v->value : NULL;
}

/* What the source column says about op i. Owned. */
static char *
source_text(const struct plan *plan, size_t i)
{
    const struct plan_op *op = &plan->ops[i];
    struct buf b = {0};
    buf_adds(&b, "");
    switch (op->kind) {
    case PLAN_OP_BIND:
    case PLAN_OP_RO_BIND:
    case PLAN_OP_DEV_BIND:
        buf_adds(&b, op->source);
        break;
    case PLAN_OP_SYMLINK:
        buf_printf(&b, "-> %s", op->source);
        break;
    case PLAN_OP_OVERLAY:
        buf_printf(&b, "upper %s", op->source);
        /* fall through */
    case PLAN_OP_RO_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
        for (size_t l = 0; l < op->layers.n; l++)
            buf_printf(&b, "%s%s", b.len ? " + " : "", op->layers.v[l]);
        break;
    case PLAN_OP_TMPFS:
        if (view_room_made(plan, i))
            buf_adds(&b, "(read-only directory opened up for mount points)");
        break;
    case PLAN_OP_REMOUNT_RO:
        buf_adds(&b, "(remounted read-only)");
        break;
    case PLAN_OP_PROC:
    case PLAN_OP_DEV:
    case PLAN_OP_DIR:
        break;
    }
    if (op->size) {
        char *s = report_size_text(op->size);
        buf_printf(&b, "%ssize %s", b.len ? ", " : "", s);
        free(s);
    }
    if (op->perms >= 0)
        buf_printf(&b, "%smode %04o", b.len ? ", " : "", (unsigned)op->perms);
    if (op->optional)
        buf_printf(&b, "%soptional", b.len ? ", " : "");
    return b.data;
}

static char *
escaped(const char *s)
{
    struct buf b = {0};
    buf_adds(&b, "");
    diag_escape(&b, s);
    return b.data;
}

static void
add_padded(struct buf *out, const char *s, size_t width)
{
    buf_adds(out, s);
    for (size_t n = strlen(s); n < width; n++)
        buf_addc(out, ' ');
}

static void
add_words(struct buf *out, const struct strv *sv, const char *none)
{
    if (!sv->n) {
        buf_adds(out, none);
        return;
    }
    for (size_t i = 0; i < sv->n; i++) {
        if (i)
            buf_addc(out, ' ');
        diag_escape(out, sv->v[i]);
    }
}

/* A new line "NAME:" padded so that every value starts in the same column. */
static void
label(struct buf *out, const char *name)
{
    buf_printf(out, "\n%s:", name);
    for (size_t n = strlen(name) + 1; n < 21; n++)
        buf_addc(out, ' ');
}

static bool
keeps_all(const struct plan *plan)
{
    for (size_t i = 0; i < plan->cap_add.n; i++)
        if (strcmp(plan->cap_add.v[i], "ALL") == 0)
            return true;
    return false;
}

void
explain_text(const struct plan *plan, const struct ynode *tree, struct buf *out)
{
    buf_adds(out, "sandbox '");
    diag_escape(out, plan->name ? plan->name : "");
    buf_adds(out, "'");
    if (plan->profile) {
        buf_adds(out, " from '");
        diag_escape(out, plan->profile);
        buf_adds(out, "'");
    }
    buf_adds(out, "\n\npaths, in mount order:\n");

    size_t n = plan->n_ops;
    char **cols = xcalloc(n * 4 + 4, sizeof *cols);
    cols[0] = xstrdup("access");
    cols[1] = xstrdup("path");
    cols[2] = xstrdup("source");
    cols[3] = xstrdup("origin");
    size_t w[3] = {6, 4, 6};
    for (size_t i = 0; i < n; i++) {
        char **row = &cols[(i + 1) * 4];
        char *src = source_text(plan, i);
        char *origin = plan_loc_str(&plan->ops[i].origin);
        row[0] = xstrdup(explain_access(plan, i));
        row[1] = escaped(plan->ops[i].dest);
        row[2] = escaped(src);
        row[3] = origin ? escaped(origin) : xstrdup("(generated)");
        free(src);
        free(origin);
        for (int c = 0; c < 3; c++)
            if (strlen(row[c]) > w[c])
                w[c] = strlen(row[c]);
    }
    for (size_t r = 0; r <= n; r++) {
        char **row = &cols[r * 4];
        buf_adds(out, "  ");
        add_padded(out, row[0], w[0] + 2);
        add_padded(out, row[1], w[1] + 2);
        if (*row[2])
            add_padded(out, row[2], w[2] + 2);
        else
            add_padded(out, "-", w[2] + 2);
        buf_adds(out, row[3]);
        buf_addc(out, '\n');
    }
    for (size_t k = 0; k < n * 4 + 4; k++)
        free(cols[k]);
    free(cols);

    label(out, "namespaces");
    struct strv own = {0}, shared = {0};
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        strv_push(plan->namespaces & (1u << i) ? &own : &shared, plan_ns_names[i]);
    buf_adds(out, "own: ");
    add_words(out, &own, "none");
    buf_adds(out, "; shared with the host: ");
    add_words(out, &shared, "none");
    strv_free(&own);
    strv_free(&shared);

    label(out, "capabilities");
    if (keeps_all(plan)) {
        buf_adds(out, "all kept");
        if (plan->cap_drop.n) {
            buf_adds(out, " except ");
            add_words(out, &plan->cap_drop, "");
        }
    } else if (plan->cap_add.n) {
        buf_adds(out, "kept: ");
        add_words(out, &plan->cap_add, "");
        buf_adds(out, "; every other one is dropped");
    } else {
        buf_adds(out, "none (all dropped)");
    }

    label(out, "environment");
    buf_adds(out, plan->clearenv ? "cleared" : "inherited from the caller");
    if (plan->unsetenv.n) {
        buf_adds(out, "\n  unset:             ");
        add_words(out, &plan->unsetenv, "");
    }
    for (size_t i = 0; i < plan->setenv_names.n; i++) {
        const char *raw = explain_env_as_written(tree, plan->setenv_names.v[i]);
        buf_adds(out, i ? "\n                     " : "\n  set (as written):  ");
        diag_escape(out, plan->setenv_names.v[i]);
        buf_addc(out, '=');
        diag_escape(out, raw ? raw : plan->setenv_values.v[i]);
    }

    label(out, "hostname");
    if (plan->hostname)
        diag_escape(out, plan->hostname);
    else
        buf_adds(out, "the host's");
    label(out, "working directory");
    diag_escape(out, plan->chdir ? plan->chdir
                                 : "not set (the caller's, if it exists in the sandbox)");
    label(out, "timeout");
    if (plan->timeout_ms) {
        char *s = plan_format_seconds(plan->timeout_ms);
        buf_printf(out, "%s s", s);
        free(s);
    } else {
        buf_adds(out, "none");
    }
    label(out, "network");
    buf_adds(out, plan->namespaces & PLAN_NS_NET
                      ? "isolated (own network namespace: loopback only)"
                      : "shared with the host");
    label(out, "new session");
    buf_adds(out, plan->new_session ? "yes" : "no (the terminal can be injected into)");
    label(out, "die with parent");
    buf_adds(out, plan->die_with_parent ? "yes" : "no");
    buf_addc(out, '\n');
}

/* ---- JSON ---------------------------------------------------------------------------- */

static json_t *
strv_json(const struct strv *sv)
{
    json_t *a = json_array();
    for (size_t i = 0; i < sv->n; i++)
        a = report_push(a, report_json_string(sv->v[i]));
    return a;
}

int
explain_json(const struct plan *plan, const struct ynode *tree, struct buf *out)
{
    json_t *paths = json_array();
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        char *origin = plan_loc_str(&op->origin);
        json_t *p = json_object();
        p = report_set(p, "access", json_string(explain_access(plan, i)));
        p = report_set(p, "path", report_json_string(op->dest));
        p = report_set(p, "op", json_string(plan_op_kind_name(op->kind)));
        bool has_source = op->kind == PLAN_OP_BIND || op->kind == PLAN_OP_RO_BIND ||
                          op->kind == PLAN_OP_DEV_BIND || op->kind == PLAN_OP_OVERLAY ||
                          op->kind == PLAN_OP_SYMLINK;
        p = report_set(p, "source", has_source ? report_json_string(op->source) : json_null());
        if (op->layers.n)
            p = report_set(p, "layers", strv_json(&op->layers));
        if (op->size)
            p = report_set(p, "size", json_integer((json_int_t)op->size));
        if (op->perms >= 0) {
            char mode[16];
            snprintf(mode, sizeof mode, "%04o", (unsigned)op->perms);
            p = report_set(p, "mode", json_string(mode));
        }
        p = report_set(p, "optional", json_boolean(op->optional));
        p = report_set(p, "origin", report_json_string_or_null(origin));
        paths = report_push(paths, p);
        free(origin);
    }
    json_t *ns = json_object();
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        ns = report_set(ns, plan_ns_names[i], json_boolean(plan->namespaces & (1u << i)));
    bool all = keeps_all(plan);
    json_t *caps = json_object();
    caps = report_set(caps, "all", json_boolean(all));
    struct strv kept = {0};
    for (size_t i = 0; i < plan->cap_add.n && !all; i++)
        strv_push(&kept, plan->cap_add.v[i]);
    caps = report_set(caps, "kept", strv_json(&kept));
    caps = report_set(caps, "dropped_after_all", strv_json(&plan->cap_drop));
    strv_free(&kept);
    json_t *setv = json_array();
    for (size_t i = 0; i < plan->setenv_names.n; i++) {
        const char *raw = explain_env_as_written(tree, plan->setenv_names.v[i]);
        json_t *o = json_object();
        o = report_set(o, "name", report_json_string(plan->setenv_names.v[i]));
        o = report_set(o, "value_as_written",
                       report_json_string(raw ? raw : plan->setenv_values.v[i]));
        setv = report_push(setv, o);
    }
    json_t *env = json_object();
    env = report_set(env, "cleared", json_boolean(plan->clearenv));
    env = report_set(env, "inherited", json_boolean(!plan->clearenv));
    env = report_set(env, "unset", strv_json(&plan->unsetenv));
    env = report_set(env, "set", setv);

    json_t *root = json_object();
    root = report_set(root, "name", report_json_string_or_null(plan->name));
    root = report_set(root, "profile", report_json_string_or_null(plan->profile));
    root = report_set(root, "paths", paths);
    root = report_set(root, "namespaces", ns);
    root = report_set(root, "capabilities", caps);
    root = report_set(root, "environment", env);
    root = report_set(root, "hostname", report_json_string_or_null(plan->hostname));
    root = report_set(root, "chdir", report_json_string_or_null(plan->chdir));
    root =
        report_set(root, "timeout_ms",
                   plan->timeout_ms ? json_integer((json_int_t)plan->timeout_ms) : json_null());
    root = report_set(root, "network",
                      json_string(plan->namespaces & PLAN_NS_NET ? "isolated" : "shared"));
    root = report_set(root, "new_session", json_boolean(plan->new_session));
    root = report_set(root, "die_with_parent", json_boolean(plan->die_with_parent));
    return report_json_take(root, out);
}
