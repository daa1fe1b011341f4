/* diff.c - see diff.h. */
#include "diff.h"

#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "../runtime/names.h"
#include "diag.h"
#include "explain.h"
#include "report.h"
#include "view.h"

const char *
diff_kind_name(enum diff_kind kind)
{
    switch (kind) {
    case DIFF_WEAKER:
        return "weaker";
    case DIFF_STRONGER:
        return "stronger";
    case DIFF_CHANGED:
        return "changed";
    }
    return "?";
}

static void add(struct diff *d, enum diff_kind kind, const char *what, const char *subject,
                char *old_state, char *new_state, char *origin);

/* Takes old_state, new_state and origin. */
static void
add(struct diff *d, enum diff_kind kind, const char *what, const char *subject, char *old_state,
    char *new_state, char *origin)
{
    d->v = xgrow(d->v, &d->cap, d->n + 1, sizeof *d->v);
    d->v[d->n++] = (struct diff_change){kind,      what,      subject ? xstrdup(subject) : NULL,
                                        old_state, new_state, origin};
    d->count[kind]++;
}

/* ---- paths --------------------------------------------------------------------------- */

/* Component order, '/' before every other byte: parents first, children right after. */
static int
path_cmp(const void *pa, const void *pb)
{
    return path_order(*(char *const *)pa, *(char *const *)pb);
}

/* How much a state grants: what is readable from the host, then writable, then
 * devices. */
static int
rank(enum view_access a)
{
    switch (a) {
    case VIEW_EMPTY:
    case VIEW_TMPFS:
        return 0;
    case VIEW_PROC:
    case VIEW_DEV:
    case VIEW_SYMLINK:
        return 1;
    case VIEW_RO:
    case VIEW_RO_OVERLAY:
    case VIEW_TMP_OVERLAY:
        return 2;
    case VIEW_RW:
    case VIEW_OVERLAY:
        return 3;
    case VIEW_DEVICE:
        return 4;
    }
    return 0;
}

static uint64_t
state_size(const struct plan *plan, const struct view_state *st)
{
    return st->op != VIEW_NONE && st->access == VIEW_TMPFS ? plan->ops[st->op].size : 0;
}

/* The state in words: "rw '/host'", "tmpfs", "empty". Owned. */
static char *
state_text(const struct plan *plan, const struct view_state *st)
{
    struct buf b = {0};
    switch (st->access) {
    case VIEW_EMPTY:
        buf_adds(&b, "not mounted (bwrap's empty root)");
        break;
    case VIEW_TMPFS:
        buf_adds(&b, "tmpfs");
        if (state_size(plan, st)) {
            char *z = report_size_text(state_size(plan, st));
            buf_printf(&b, " of size %s", z);
            free(z);
        }
        break;
    case VIEW_SYMLINK:
        buf_printf(&b, "symlink to '%s'", st->host);
        break;
    case VIEW_OVERLAY:
        buf_printf(&b, "overlay, writes to '%s'", st->host);
        break;
    case VIEW_RO:
    case VIEW_RW:
    case VIEW_DEVICE:
        buf_printf(&b, "%s '%s'", view_access_name(st->access), st->host);
        break;
    case VIEW_PROC:
    case VIEW_DEV:
    case VIEW_RO_OVERLAY:
    case VIEW_TMP_OVERLAY:
        buf_adds(&b, view_access_name(st->access));
        break;
    }
    if (st->optional)
        buf_adds(&b, " (optional: skipped when the source is missing)");
    return b.data;
}

static bool
same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool
host_backed(enum view_access a)
{
    return a == VIEW_RO || a == VIEW_RW || a == VIEW_DEVICE || a == VIEW_OVERLAY;
}

static void
diff_path(struct diff *d, const char *p, const struct plan *a, const struct plan *b)
{
    struct view_state sa, sb;
    view_state_at(a, p, &sa);
    view_state_at(b, p, &sb);
    uint64_t za = state_size(a, &sa), zb = state_size(b, &sb);
    bool same = sa.access == sb.access && same_text(sa.host, sb.host) &&
                sa.optional == sb.optional && za == zb;
    if (!same) {
        enum diff_kind kind = DIFF_CHANGED;
        int ra = rank(sa.access), rb = rank(sb.access);
        struct stat st;
        bool other_files = host_backed(sb.access) && host_backed(sa.access) && sb.host &&
                           !same_text(sa.host, sb.host) && lstat(sb.host, &st) == 0;
        if (rb > ra || other_files)
            kind = DIFF_WEAKER; /* more access, or other host files readable */
        else if (rb < ra)
            kind = DIFF_STRONGER;
        else if (sa.optional != sb.optional)
            kind = sb.optional ? DIFF_WEAKER : DIFF_STRONGER;
        else if (za != zb)
            kind = (!zb || (za && zb > za)) ? DIFF_WEAKER : DIFF_STRONGER;
        const struct plan_loc *loc = sb.op != VIEW_NONE   ? &b->ops[sb.op].origin
                                     : sa.op != VIEW_NONE ? &a->ops[sa.op].origin
                                                          : NULL;
        add(d, kind, "path", p, state_text(a, &sa), state_text(b, &sb),
            loc ? plan_loc_str(loc) : NULL);
    }
    view_state_free(&sa);
    view_state_free(&sb);
}

static void
diff_paths(struct diff *d, const struct plan *a, const struct plan *b)
{
    size_t n = a->n_ops + b->n_ops;
    char **paths = xcalloc(n ? n : 1, sizeof *paths);
    for (size_t i = 0; i < a->n_ops; i++)
        paths[i] = a->ops[i].dest;
    for (size_t i = 0; i < b->n_ops; i++)
        paths[a->n_ops + i] = b->ops[i].dest;
    if (n)
        qsort(paths, n, sizeof *paths, path_cmp);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(paths[i], paths[i - 1]) != 0)
            diff_path(d, paths[i], a, b);
    free(paths);
}

/* ---- the rest ------------------------------------------------------------------------- */

static void
diff_namespaces(struct diff *d, const struct plan *a, const struct plan *b)
{
    for (int i = 0; i < PLAN_NS_COUNT; i++) {
        bool ha = a->namespaces & (1u << i), hb = b->namespaces & (1u << i);
        if (ha == hb)
            continue;
        bool net = (1u << i) == PLAN_NS_NET;
        const char *own = net ? "isolated (own namespace)" : "own namespace";
        add(d, hb ? DIFF_STRONGER : DIFF_WEAKER, net ? "network" : "namespace",
            net ? NULL : plan_ns_names[i], xstrdup(ha ? own : "shared with the host"),
            xstrdup(hb ? own : "shared with the host"), NULL);
    }
}

static char *
words(const struct strv *sv)
{
    struct buf b = {0};
    buf_adds(&b, "");
    for (size_t i = 0; i < sv->n; i++)
        buf_printf(&b, "%s%s", i ? " " : "", sv->v[i]);
    return b.data;
}

static char *
caps_text(const struct plan *p)
{
    if (strv_has(&p->cap_add, "ALL")) {
        char *w = words(&p->cap_drop);
        char *r = p->cap_drop.n ? xasprintf("all kept except %s", w) : xstrdup("all kept");
        free(w);
        return r;
    }
    if (!p->cap_add.n)
        return xstrdup("none kept");
    char *w = words(&p->cap_add);
    char *r = xasprintf("kept: %s", w);
    free(w);
    return r;
}

static void
diff_caps(struct diff *d, const struct plan *a, const struct plan *b)
{
    bool all_a = strv_has(&a->cap_add, "ALL"), all_b = strv_has(&b->cap_add, "ALL");
    if (all_a != all_b) {
        add(d, all_b ? DIFF_WEAKER : DIFF_STRONGER, "capabilities", NULL, caps_text(a),
            caps_text(b), NULL);
        return;
    }
    /* Both keep listed ones, or both keep all but the dropped ones. */
    const struct strv *la = all_a ? &a->cap_drop : &a->cap_add;
    const struct strv *lb = all_a ? &b->cap_drop : &b->cap_add;
    for (size_t i = 0; i < lb->n; i++)
        if (!strv_has(la, lb->v[i]))
            add(d, all_a ? DIFF_STRONGER : DIFF_WEAKER, "capability", lb->v[i],
                xstrdup(all_a ? "kept" : "dropped"), xstrdup(all_a ? "dropped" : "kept"), NULL);
    for (size_t i = 0; i < la->n; i++)
        if (!strv_has(lb, la->v[i]))
            add(d, all_a ? DIFF_WEAKER : DIFF_STRONGER, "capability", la->v[i],
                xstrdup(all_a ? "dropped" : "kept"), xstrdup(all_a ? "kept" : "dropped"), NULL);
}

enum env_state {
    ENV_REMOVED,
    ENV_SET,
    ENV_INHERITED,
};

static enum env_state
env_state(const struct plan *p, const char *name, size_t *idx)
{
    for (size_t i = 0; i < p->setenv_names.n; i++) {
        if (strcmp(p->setenv_names.v[i], name) == 0) {
            *idx = i;
            return ENV_SET;
        }
    }
    return p->clearenv || strv_has(&p->unsetenv, name) ? ENV_REMOVED : ENV_INHERITED;
}

static char *
env_text(const struct plan *p, const struct ynode *tree, const char *name)
{
    size_t i = 0;
    switch (env_state(p, name, &i)) {
    case ENV_REMOVED:
        return xstrdup(p->clearenv ? "removed (environment cleared)" : "unset");
    case ENV_INHERITED:
        return xstrdup("passed through from the caller");
    case ENV_SET: {
        const char *raw = explain_env_as_written(tree, name);
        return xasprintf("set to '%s'", raw ? raw : p->setenv_values.v[i]);
    }
    }
    return xstrdup("?");
}

static void
diff_env(struct diff *d, const struct plan *a, const struct ynode *ta, const struct plan *b,
         const struct ynode *tb)
{
    if (a->clearenv != b->clearenv)
        add(d, b->clearenv ? DIFF_STRONGER : DIFF_WEAKER, "environment", NULL,
            xstrdup(a->clearenv ? "cleared" : "inherited from the caller"),
            xstrdup(b->clearenv ? "cleared" : "inherited from the caller"), NULL);
    struct strv names = {0};
    const struct strv *lists[] = {&a->setenv_names, &a->unsetenv, &b->setenv_names,
                                  &b->unsetenv};
    for (size_t l = 0; l < 4; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            if (!strv_has(&names, lists[l]->v[i]))
                strv_push(&names, lists[l]->v[i]);
    if (names.n)
        qsort(names.v, names.n, sizeof *names.v, path_cmp);
    for (size_t k = 0; k < names.n; k++) {
        const char *name = names.v[k];
        size_t ia = 0, ib = 0;
        enum env_state ea = env_state(a, name, &ia), eb = env_state(b, name, &ib);
        enum diff_kind kind;
        if (ea != eb)
            kind = eb > ea ? DIFF_WEAKER : DIFF_STRONGER;
        else if (ea == ENV_SET && strcmp(a->setenv_values.v[ia], b->setenv_values.v[ib]) != 0)
            kind = DIFF_CHANGED;
        else
            continue;
        add(d, kind, "variable", name, env_text(a, ta, name), env_text(b, tb, name), NULL);
    }
    strv_free(&names);
}

static char *
opt_text(const char *s, const char *none)
{
    return s ? xasprintf("'%s'", s) : xstrdup(none);
}

static char *
timeout_text(uint64_t ms)
{
    if (!ms)
        return xstrdup("none");
    char *s = plan_format_seconds(ms);
    char *r = xasprintf("%s s", s);
    free(s);
    return r;
}

static void
diff_process(struct diff *d, const struct plan *a, const struct plan *b)
{
    if (!same_text(a->hostname, b->hostname))
        add(d, DIFF_CHANGED, "hostname", NULL, opt_text(a->hostname, "none"),
            opt_text(b->hostname, "none"), NULL);
    if (!same_text(a->chdir, b->chdir))
        add(d, DIFF_CHANGED, "chdir", NULL, opt_text(a->chdir, "none"),
            opt_text(b->chdir, "none"), NULL);
    if (a->timeout_ms != b->timeout_ms) {
        bool weaker = !b->timeout_ms || (a->timeout_ms && b->timeout_ms > a->timeout_ms);
        add(d, weaker ? DIFF_WEAKER : DIFF_STRONGER, "timeout", NULL,
            timeout_text(a->timeout_ms), timeout_text(b->timeout_ms), NULL);
    }
    if (a->new_session != b->new_session)
        add(d, b->new_session ? DIFF_STRONGER : DIFF_WEAKER, "new_session", NULL,
            xstrdup(a->new_session ? "true" : "false"),
            xstrdup(b->new_session ? "true" : "false"), NULL);
    if (a->die_with_parent != b->die_with_parent)
        add(d, b->die_with_parent ? DIFF_STRONGER : DIFF_WEAKER, "die_with_parent", NULL,
            xstrdup(a->die_with_parent ? "true" : "false"),
            xstrdup(b->die_with_parent ? "true" : "false"), NULL);
}

void
diff_plans(const struct plan *old_plan, const struct ynode *old_tree,
           const struct plan *new_plan, const struct ynode *new_tree, struct diff *out)
{
    memset(out, 0, sizeof *out);
    diff_paths(out, old_plan, new_plan);
    diff_namespaces(out, old_plan, new_plan);
    diff_caps(out, old_plan, new_plan);
    diff_env(out, old_plan, old_tree, new_plan, new_tree);
    diff_process(out, old_plan, new_plan);
}

void
diff_free(struct diff *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].subject);
        free(d->v[i].old_state);
        free(d->v[i].new_state);
        free(d->v[i].origin);
    }
    free(d->v);
    memset(d, 0, sizeof *d);
}

/* ---- outputs ----------------------------------------------------------------------------- */

void
diff_text(const struct diff *d, struct buf *out)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct diff_change *c = &d->v[i];
        buf_printf(out, "%-9s %s", diff_kind_name(c->kind), c->what);
        if (c->subject) {
            buf_adds(out, " '");
            diag_escape(out, c->subject);
            buf_adds(out, "'");
        }
        buf_adds(out, ": ");
        diag_escape(out, c->old_state);
        buf_adds(out, " -> ");
        diag_escape(out, c->new_state);
        if (c->origin) {
            buf_adds(out, " [");
            diag_escape(out, c->origin);
            buf_adds(out, "]");
        }
        buf_addc(out, '\n');
    }
    if (!d->n)
        buf_adds(out, "no effective difference\n");
    else
        buf_printf(out, "%zu weaker, %zu stronger, %zu changed\n", d->count[DIFF_WEAKER],
                   d->count[DIFF_STRONGER], d->count[DIFF_CHANGED]);
}

int
diff_json(const struct diff *d, const char *old_file, const char *new_file, struct buf *out)
{
    json_t *changes = json_array();
    for (size_t i = 0; i < d->n; i++) {
        const struct diff_change *c = &d->v[i];
        json_t *o = json_object();
        o = report_set(o, "change", json_string(diff_kind_name(c->kind)));
        o = report_set(o, "what", json_string(c->what));
        o = report_set(o, "subject", report_json_string_or_null(c->subject));
        o = report_set(o, "old", report_json_string(c->old_state));
        o = report_set(o, "new", report_json_string(c->new_state));
        o = report_set(o, "origin", report_json_string_or_null(c->origin));
        changes = report_push(changes, o);
    }
    json_t *root = json_object();
    root = report_set(root, "old", report_json_string(old_file));
    root = report_set(root, "new", report_json_string(new_file));
    root = report_set(root, "changes", changes);
    root = report_set(root, "weaker", json_integer((json_int_t)d->count[DIFF_WEAKER]));
    root = report_set(root, "stronger", json_integer((json_int_t)d->count[DIFF_STRONGER]));
    root = report_set(root, "changed", json_integer((json_int_t)d->count[DIFF_CHANGED]));
    return report_json_take(root, out);
}
