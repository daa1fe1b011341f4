/* lower.c - see lower.h. */
#include "lower.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

struct lctx {
    const struct profile_doc *doc;
    struct plan *plan;
    struct diag_sink *sink;
};

static struct plan_loc
loc_of(const struct lctx *c, const struct ynode *node)
{
    return ynode_loc(c->doc->file, node);
}

static void err_at(struct lctx *c, const struct ynode *node, const char *fmt, ...)
    NOOK_PRINTF(3, 4);

static void
err_at(struct lctx *c, const struct ynode *node, const char *fmt, ...)
{
    struct plan_loc loc = loc_of(c, node);
    va_list ap;
    va_start(ap, fmt);
    diag_verror(c->sink, &loc, fmt, ap);
    va_end(ap);
}

/* Expands a string value; NULL (error reported at node) on failure. */
static char *
expand_at(struct lctx *c, const char *value, const struct ynode *node)
{
    char *err = NULL;
    char *r = expand_vars(value, &err);
    if (!r) {
        err_at(c, node, "%s", err);
        free(err);
        return NULL;
    }
    if (!utf8_valid(r, strlen(r))) {
        err_at(c, node, "value is not valid UTF-8 after expanding variables");
        free(r);
        return NULL;
    }
    return r;
}

/* ---- mounts ------------------------------------------------------------------- */

static bool
is_bind(int kind)
{
    return kind == PLAN_OP_BIND || kind == PLAN_OP_RO_BIND || kind == PLAN_OP_DEV_BIND;
}

static bool
is_overlay(int kind)
{
    return kind == PLAN_OP_OVERLAY || kind == PLAN_OP_RO_OVERLAY || kind == PLAN_OP_TMP_OVERLAY;
}

/* Refuses a key that the mount type does not take. */
static void
refuse_key(struct lctx *c, const struct ynode *entry, const char *key, const char *type,
           const char *valid_for)
{
    const struct ynode *k = ymap_key(entry, key);
    if (k)
        err_at(c, k, "'%s' is not valid for '%s' mounts (only for %s)", key, type, valid_for);
}

/* Both spellings of one setting ("create-source" and "create_source"). */
static const struct ynode *
one_spelling(struct lctx *c, const struct ynode *entry, const char *canonical,
             const char *alias)
{
    const struct ynode *a = ymap_key(entry, canonical);
    const struct ynode *b = ymap_key(entry, alias);
    if (a && b) {
        const struct ynode *later =
            (b->line > a->line || (b->line == a->line && b->col > a->col)) ? b : a;
        err_at(c, later, "'%s' and '%s' are the same setting; keep only '%s'", canonical, alias,
               canonical);
    }
    return a ? a : b;
}

static void
lower_mount(struct lctx *c, const struct profile_mount *m, const struct ynode *entry)
{
    const char *type = plan_op_kind_name((enum plan_op_kind)m->type);
    const struct ynode *type_node = ymap_get(entry, "type");
    const struct ynode *src_node = ymap_get(entry, "source");
    const struct ynode *dst_node = ymap_get(entry, "target");
    int kind = m->type;
    bool bind = is_bind(kind), overlay = is_overlay(kind);

    if (!bind && kind != PLAN_OP_OVERLAY)
        refuse_key(c, entry, "source", type, "bind, ro-bind, dev-bind and overlay");
    if (!bind) {
        refuse_key(c, entry, "optional", type, "bind, ro-bind and dev-bind");
        refuse_key(c, entry, "create-source", type, "bind, ro-bind and dev-bind");
        refuse_key(c, entry, "create_source", type, "bind, ro-bind and dev-bind");
        refuse_key(c, entry, "create-as", type, "bind, ro-bind and dev-bind");
        refuse_key(c, entry, "create_as", type, "bind, ro-bind and dev-bind");
    }
    if (kind != PLAN_OP_DEV_BIND)
        refuse_key(c, entry, "device", type, "dev-bind");
    if (kind != PLAN_OP_TMPFS)
        refuse_key(c, entry, "size", type, "tmpfs");
    if (kind != PLAN_OP_TMPFS && kind != PLAN_OP_DIR)
        refuse_key(c, entry, "mode", type, "tmpfs and dir");
    if (!overlay) {
        refuse_key(c, entry, "overlay-src", type, "overlay, ro-overlay and tmp-overlay");
        refuse_key(c, entry, "overlay_src", type, "overlay, ro-overlay and tmp-overlay");
    }
    if (kind != PLAN_OP_OVERLAY)
        refuse_key(c, entry, "workdir", type, "overlay");

    struct plan_op *op = plan_add_op(c->plan, (enum plan_op_kind)kind);
    struct plan_loc oloc = loc_of(c, dst_node ? dst_node : entry);
    plan_loc_copy(&op->origin, &oloc);
    if (src_node) {
        struct plan_loc sloc = loc_of(c, src_node);
        plan_loc_copy(&op->src_origin, &sloc);
    }

    /* target: required except for proc and dev, which default to /proc and /dev */
    if (m->target && *m->target) {
        op->dest = expand_at(c, m->target, dst_node);
    } else if (kind == PLAN_OP_PROC || kind == PLAN_OP_DEV) {
        op->dest = xstrdup(kind == PLAN_OP_PROC ? "/proc" : "/dev");
    } else {
        err_at(c, dst_node ? dst_node : entry, "'%s' mount requires a non-empty 'target'",
               type);
    }
    if (bind || kind == PLAN_OP_OVERLAY) {
        if (m->source && *m->source)
            op->source = expand_at(c, m->source, src_node);
        else
            err_at(c, src_node ? src_node : entry, "'%s' mount requires a non-empty 'source'",
                   type);
    }

    if (kind == PLAN_OP_DEV_BIND && !m->device)
        err_at(c, type_node,
               "'dev-bind' exposes host device nodes and requires 'device: true'");

    if (bind) {
        op->optional = m->optional;
        (void)one_spelling(c, entry, "create-source", "create_source");
        const struct ynode *ca = one_spelling(c, entry, "create-as", "create_as");
        bool create = m->create_source || m->create_source_u;
        const char *as = m->create_as ? m->create_as : m->create_as_u;
        if (ca && !create) {
            err_at(c, ca, "'%s' is only valid when 'create-source' is true", ca->value);
        } else if (create) {
            op->create_source = PLAN_CREATE_DIR;
            if (as && strcmp(as, "file") == 0)
                op->create_source = PLAN_CREATE_FILE;
            else if (as && strcmp(as, "dir") != 0)
                err_at(c, ymap_get(entry, ca->value),
                       "'create-as' must be 'dir' or 'file', got '%s'", as);
        }
    }

    if (kind == PLAN_OP_TMPFS && m->size) {
        const struct ynode *n = ymap_get(entry, "size");
        char *s = expand_at(c, m->size, n);
        const char *why;
        if (s && *s && parse_size(s, &op->size, &why) < 0)
            err_at(c, n, "invalid size '%s': %s", s, why);
        free(s);
    }
    if (m->mode) {
        const struct ynode *n = ymap_get(entry, "mode");
        unsigned mode;
        const char *why;
        if (n->plain)
            err_at(c, n,
                   "'mode' must be a quoted octal string such as \"0755\" (unquoted, "
                   "YAML may read it as a decimal or octal number)");
        else if (parse_mode(m->mode, &mode, &why) < 0)
            err_at(c, n, "invalid mode '%s': %s", m->mode, why);
        else
            op->perms = (int)mode;
    }

    if (overlay) {
        /* With both spellings there is already an error; counting layers of either
         * would only add noise. */
        bool both = ymap_key(entry, "overlay-src") && ymap_key(entry, "overlay_src");
        const struct ynode *ln = one_spelling(c, entry, "overlay-src", "overlay_src");
        bool canonical = !ln || strcmp(ln->value, "overlay-src") == 0;
        char **layers = canonical ? m->overlay_src : m->overlay_src_u;
        unsigned n = canonical ? m->overlay_src_count : m->overlay_src_u_count;
        const struct ynode *lnode = ln ? ymap_get(entry, ln->value) : NULL;
        for (unsigned i = 0; i < n && !both; i++) {
            char *l = expand_at(c, layers[i], lnode->vals[i]);
            if (l)
                strv_push_take(&op->layers, l);
        }
        unsigned need = kind == PLAN_OP_RO_OVERLAY ? 2 : 1;
        if (n < need && !both)
            err_at(c, ln ? ln : type_node,
                   "'%s' mount requires at least %s 'overlay-src' layer%s", type,
                   need == 2 ? "two" : "one", need == 2 ? "s" : "");
        if (kind == PLAN_OP_OVERLAY) {
            const struct ynode *wn = ymap_get(entry, "workdir");
            if (m->workdir && *m->workdir)
                op->workdir = expand_at(c, m->workdir, wn);
            else
                err_at(c, wn ? wn : entry, "'overlay' mount requires a non-empty 'workdir'");
        }
    }
}

/* ---- capabilities, namespaces, environment ------------------------------------ */

/* Parses a capability list into out (deduplicated, in order). */
static void
cap_list(struct lctx *c, char **names, unsigned n, const struct ynode *list, struct strv *out)
{
    for (unsigned i = 0; i < n; i++) {
        char *cap = NULL;
        const char *why;
        if (parse_cap(names[i], &cap, &why) < 0) {
            err_at(c, list->vals[i], "%s '%s'", why, names[i]);
            continue;
        }
        if (strv_has(out, cap))
            free(cap);
        else
            strv_push_take(out, cap);
    }
}

static void
lower_caps(struct lctx *c, const struct profile_caps *caps, const struct ynode *node)
{
    struct strv keep = {0}, drop = {0};
    const struct ynode *keep_node = ymap_get(node, "keep");
    const struct ynode *drop_node = ymap_get(node, "drop");
    cap_list(c, caps->keep, caps->keep_count, keep_node, &keep);
    cap_list(c, caps->drop, caps->drop_count, drop_node, &drop);
    /* Everything starts dropped (--cap-drop ALL); keep adds back; an explicit drop only
     * means something after "keep: [ALL]". */
    bool keep_all = strv_has(&keep, "ALL");
    for (size_t i = 0; i < drop.n; i++) {
        if (strcmp(drop.v[i], "ALL") == 0)
            continue;
        if (strv_has(&keep, drop.v[i])) {
            for (unsigned k = 0; k < caps->drop_count; k++) {
                char *canon = NULL;
                const char *why;
                if (parse_cap(caps->drop[k], &canon, &why) == 0 &&
                    strcmp(canon, drop.v[i]) == 0)
                    err_at(c, drop_node->vals[k], "capability '%s' is both kept and dropped",
                           drop.v[i]);
                free(canon);
            }
        } else if (keep_all) {
            strv_push(&c->plan->cap_drop, drop.v[i]);
        }
    }
    if (keep_all)
        strv_push(&c->plan->cap_add, "ALL");
    else
        for (size_t i = 0; i < keep.n; i++)
            strv_push(&c->plan->cap_add, keep.v[i]);
    strv_free(&keep);
    strv_free(&drop);
}

static void
lower_unshare(struct lctx *c, const struct profile_unshare *u)
{
    const bool flags[PLAN_NS_COUNT] = {u->pid, u->uts, u->ipc, u->cgroup, u->user, u->network};
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        if (flags[i])
            c->plan->namespaces |= 1u << i;
    /* A new network namespace comes with its own uts and ipc (as bwrap documents and
     * the original agent-nook promises). */
    if (u->network)
        c->plan->namespaces |= PLAN_NS_UTS | PLAN_NS_IPC;
}

static void
add_unset(struct lctx *c, const char *name, size_t len, const struct ynode *node)
{
    if (len == 3 && strncasecmp(name, "ALL", 3) == 0) {
        c->plan->clearenv = true;
        return;
    }
    char *n = xstrndup(name, len);
    const char *why;
    if (check_env_name(n, len, &why) < 0)
        err_at(c, node, "invalid name '%s' in 'unset_vars': %s", n, why);
    if (strv_has(&c->plan->unsetenv, n))
        free(n);
    else
        strv_push_take(&c->plan->unsetenv, n);
}

static void
lower_unset(struct lctx *c, const struct ynode *node)
{
    if (node->type == YNODE_SEQ) {
        for (size_t i = 0; i < node->n; i++) {
            char *v = expand_at(c, node->vals[i]->value, node->vals[i]);
            if (v)
                add_unset(c, v, strlen(v), node->vals[i]);
            free(v);
        }
        return;
    }
    if (ynode_is_null(node))
        return;
    /* A string: names separated by whitespace or commas (the original's comments say
     * commas, its code split on whitespace; both are accepted). */
    char *v = expand_at(c, node->value, node);
    if (!v)
        return;
    const char *p = v;
    while (*p) {
        p += strspn(p, " \t\r\n,");
        size_t n = strcspn(p, " \t\r\n,");
        if (n)
            add_unset(c, p, n, node);
        p += n;
    }
    free(v);
}

static void
lower_env(struct lctx *c, const struct ynode *node)
{
    if (ynode_is_null(node))
        return;
    for (size_t i = 0; i < node->n; i++) {
        const struct ynode *k = node->keys[i], *v = node->vals[i];
        const char *why;
        if (check_env_name(k->value, k->len, &why) < 0) {
            err_at(c, k, "%s", why);
            continue;
        }
        if (strlen(v->value) != v->len) {
            err_at(c, v, "value of '%s' contains a NUL character", k->value);
            continue;
        }
        char *val = expand_at(c, v->value, v);
        if (!val)
            continue;
        strv_push(&c->plan->setenv_names, k->value);
        strv_push_take(&c->plan->setenv_values, val);
    }
}

unsigned
lower_profile(const struct profile_doc *doc, struct plan *plan, struct diag_sink *sink)
{
    struct lctx c = {doc, plan, sink};
    unsigned before = sink->errors;
    const struct profile_yaml *y = doc->y;
    const struct ynode *top = doc->tree;

    const struct ynode *name_node = ymap_get(top, "name");
    if (!*y->name)
        err_at(&c, name_node, "'name' must not be empty");
    plan->name = expand_at(&c, y->name, name_node);
    plan->profile = xstrdup(doc->file);

    const struct ynode *mounts = ymap_get(top, "mounts");
    if (y->mounts_count == 0)
        err_at(&c, mounts ? mounts : top,
               "at least one mount point is required: the sandbox root would be empty");
    for (unsigned i = 0; i < y->mounts_count; i++)
        lower_mount(&c, &y->mounts[i], mounts->vals[i]);

    if (y->capabilities)
        lower_caps(&c, y->capabilities, ymap_get(top, "capabilities"));
    if (y->unshare)
        lower_unshare(&c, y->unshare);

    if (y->hostname) {
        const struct ynode *n = ymap_get(top, "hostname");
        char *h = expand_at(&c, y->hostname, n);
        const char *why;
        if (h && check_hostname(h, &why) < 0)
            err_at(&c, n, "invalid hostname '%s': %s", h, why);
        plan->hostname = h;
        /* bwrap refuses --hostname without a uts namespace. */
        plan->namespaces |= PLAN_NS_UTS;
    }
    if (y->chdir) {
        const struct ynode *n = ymap_get(top, "chdir");
        char *d = expand_at(&c, y->chdir, n);
        char *norm = NULL;
        const char *why;
        if (d && path_normalize(d, &norm, &why) < 0)
            err_at(&c, n, "invalid chdir '%s': %s", d, why);
        plan->chdir = norm;
        free(d);
    }
    if (y->die_with_parent)
        plan->die_with_parent = *y->die_with_parent;
    if (y->new_session)
        plan->new_session = *y->new_session;
    if (y->timeout) {
        /* The text, not libcyaml's double: decimal seconds are exact milliseconds. */
        const struct ynode *n = ymap_get(top, "timeout");
        const char *why;
        if (parse_timeout(n->value, &plan->timeout_ms, &why) < 0)
            err_at(&c, n, "invalid timeout: %s", why);
    }
    const struct ynode *env = ymap_get(top, "env_vars");
    if (env)
        lower_env(&c, env);
    const struct ynode *unset = ymap_get(top, "unset_vars");
    if (unset)
        lower_unset(&c, unset);
    return sink->errors - before;
}
