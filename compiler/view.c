/* view.c - see view.h. */
#include "view.h"

#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "../runtime/names.h"

/* The components of a canonical absolute path ("/" has none). */
static void
split(const char *p, struct strv *out)
{
    while (*p) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        if (n)
            strv_push_take(out, xstrndup(p, n));
        p += n;
    }
}

/* "/" + comps[from..] joined under base ("/" or a canonical path). Owned. */
static char *
join(const char *base, char *const *comps, size_t from, size_t to)
{
    struct buf b = {0};
    buf_adds(&b, strcmp(base, "/") == 0 ? "" : base);
    for (size_t k = from; k < to; k++) {
        buf_addc(&b, '/');
        buf_adds(&b, comps[k]);
    }
    if (!b.len)
        buf_adds(&b, "/");
    return b.data;
}

/* Pattern characters count only in pattern mode (literal = false). */
static bool
has_glob(const char *comp, bool literal)
{
    return !literal && strpbrk(comp, "*?[") != NULL;
}

static bool
skipped(const struct plan_op *op)
{
    return op->kind == PLAN_OP_DIR || op->kind == PLAN_OP_REMOUNT_RO;
}

size_t
view_decider(const struct plan *plan, const char *p, size_t before)
{
    for (size_t i = before; i-- > 0;) {
        const struct plan_op *op = &plan->ops[i];
        if (skipped(op))
            continue;
        if (strcmp(op->dest, p) == 0 || path_is_ancestor(op->dest, p))
            return i;
    }
    return VIEW_NONE;
}

/* The last deciding op whose target is exactly `dest`, or VIEW_NONE. */
static size_t
last_at(const struct view *v, const char *dest)
{
    /* The first entry whose target sorts after dest; the one before it is the last
     * entry at dest, when there is one. */
    size_t lo = 0, hi = v->n_by_dest;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v->plan->ops[v->by_dest[mid]].dest, dest) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || strcmp(v->plan->ops[v->by_dest[lo - 1]].dest, dest) != 0)
        return VIEW_NONE;
    return v->by_dest[lo - 1];
}

/* The op that decides every path the pattern q (components) stands for: the last one
 * whose target covers them all - each of its components equal to q's literally, none
 * of those a pattern - that is, whose target is "/" or a literal prefix of q. Each such
 * prefix is looked up instead of every op scanned. */
static size_t
decider_pattern(const struct view *v, const struct strv *q, bool literal)
{
    size_t best = last_at(v, "/");
    struct buf b = {0};
    for (size_t k = 0; k < q->n && !has_glob(q->v[k], literal); k++) {
        buf_addc(&b, '/');
        buf_adds(&b, q->v[k]);
        size_t i = last_at(v, b.data);
        if (i != VIEW_NONE && (best == VIEW_NONE || i > best))
            best = i;
    }
    buf_free(&b);
    return best;
}

bool
view_host_backed(const struct plan_op *op)
{
    switch (op->kind) {
    case PLAN_OP_BIND:
    case PLAN_OP_RO_BIND:
    case PLAN_OP_DEV_BIND:
    case PLAN_OP_OVERLAY:
    case PLAN_OP_RO_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
        return true;
    case PLAN_OP_TMPFS:
    case PLAN_OP_PROC:
    case PLAN_OP_DEV:
    case PLAN_OP_DIR:
    case PLAN_OP_SYMLINK:
    case PLAN_OP_REMOUNT_RO:
        return false;
    }
    return false;
}

bool
view_writes_host(const struct plan_op *op)
{
    return op->kind == PLAN_OP_BIND || op->kind == PLAN_OP_DEV_BIND ||
           op->kind == PLAN_OP_OVERLAY;
}

bool
view_room_made(const struct plan *plan, size_t i)
{
    if (plan->ops[i].kind != PLAN_OP_TMPFS)
        return false;
    for (size_t j = i + 1; j < plan->n_ops; j++)
        if (plan->ops[j].kind == PLAN_OP_REMOUNT_RO &&
            strcmp(plan->ops[j].dest, plan->ops[i].dest) == 0)
            return true;
    return false;
}

/* base + the part of p below anc (anc is p or an ancestor of it). Owned. */
static char *
rebase(const char *base, const char *anc, const char *p)
{
    const char *rel = strcmp(anc, "/") == 0 ? p : p + strlen(anc);
    if (!*rel)
        return xstrdup(base);
    return xasprintf("%s%s", strcmp(base, "/") == 0 ? "" : base, rel);
}

/* The remount-ro op that closes a read-only directory the room-making pass opened up at
 * `dest` (a room-made tmpfs, or bwrap's root for '/'), or VIEW_NONE. */
static size_t
room_remount(const struct plan *plan, const char *dest)
{
    for (size_t j = 0; j < plan->n_ops; j++)
        if (plan->ops[j].kind == PLAN_OP_REMOUNT_RO && strcmp(plan->ops[j].dest, dest) == 0)
            return j;
    return VIEW_NONE;
}

/* The source of the read-only bind that remount r closes: the parent of the source of
 * one of the per-entry binds it was lowered into (same declaration). Owned or NULL. */
static char *
room_source(const struct plan *plan, size_t r)
{
    const struct plan_op *rm = &plan->ops[r];
    for (size_t j = 0; j < plan->n_ops; j++) {
        const struct plan_op *op = &plan->ops[j];
        if (op->kind != PLAN_OP_RO_BIND || op->decl != rm->decl || !op->source ||
            !path_is_ancestor(rm->dest, op->dest) ||
            strchr(op->dest + strlen(rm->dest) + (strcmp(rm->dest, "/") != 0), '/'))
            continue;
        const char *slash = strrchr(op->source, '/');
        return slash == op->source ? xstrdup("/")
                                   : xstrndup(op->source, (size_t)(slash - op->source));
    }
    return NULL;
}

void
view_state_at(const struct plan *plan, const char *p, struct view_state *out)
{
    memset(out, 0, sizeof *out);
    out->op = view_decider(plan, p, plan->n_ops);
    out->access = VIEW_EMPTY;
    /* A read-only directory opened up for mount points still shows its host directory,
     * read-only: report it as the bind it stands for. */
    const char *room = out->op == VIEW_NONE            ? "/"
                       : view_room_made(plan, out->op) ? plan->ops[out->op].dest
                                                       : NULL;
    size_t r = room ? room_remount(plan, room) : VIEW_NONE;
    /* Symlinks come from the room-making only (profiles cannot make one): a copy of a
     * host symlink in an opened-up directory is that directory's. */
    if (out->op != VIEW_NONE && plan->ops[out->op].kind == PLAN_OP_SYMLINK) {
        for (size_t j = 0; j < plan->n_ops && r == VIEW_NONE; j++)
            if (plan->ops[j].kind == PLAN_OP_REMOUNT_RO &&
                plan->ops[j].decl == plan->ops[out->op].decl)
                r = j;
        room = r != VIEW_NONE ? plan->ops[r].dest : NULL;
    }
    if (r != VIEW_NONE) {
        out->access = VIEW_RO;
        char *src = room_source(plan, r);
        if (src)
            out->host = rebase(src, room, p);
        free(src);
        return;
    }
    if (out->op == VIEW_NONE)
        return;
    const struct plan_op *op = &plan->ops[out->op];
    switch (op->kind) {
    case PLAN_OP_BIND:
        out->access = VIEW_RW;
        break;
    case PLAN_OP_RO_BIND:
        out->access = VIEW_RO;
        break;
    case PLAN_OP_DEV_BIND:
        out->access = VIEW_DEVICE;
        break;
    case PLAN_OP_TMPFS:
        out->access = VIEW_TMPFS;
        return;
    case PLAN_OP_PROC:
        out->access = VIEW_PROC;
        return;
    case PLAN_OP_DEV:
        out->access = VIEW_DEV;
        return;
    case PLAN_OP_SYMLINK:
        out->access = VIEW_SYMLINK;
        out->host = xstrdup(op->source);
        return;
    case PLAN_OP_OVERLAY:
        out->access = VIEW_OVERLAY;
        break;
    case PLAN_OP_RO_OVERLAY:
        out->access = VIEW_RO_OVERLAY;
        return;
    case PLAN_OP_TMP_OVERLAY:
        out->access = VIEW_TMP_OVERLAY;
        return;
    case PLAN_OP_DIR:
    case PLAN_OP_REMOUNT_RO:
        return; /* never deciders */
    }
    out->optional = op->optional;
    out->host = rebase(op->source, op->dest, p);
}

void
view_state_free(struct view_state *st)
{
    free(st->host);
    st->host = NULL;
}

const char *
view_access_name(enum view_access access)
{
    switch (access) {
    case VIEW_EMPTY:
        return "empty";
    case VIEW_TMPFS:
        return "tmpfs";
    case VIEW_PROC:
        return "proc";
    case VIEW_DEV:
        return "dev";
    case VIEW_RO:
        return "ro";
    case VIEW_RW:
        return "rw";
    case VIEW_DEVICE:
        return "device";
    case VIEW_SYMLINK:
        return "symlink";
    case VIEW_OVERLAY:
        return "overlay";
    case VIEW_RO_OVERLAY:
        return "ro-overlay";
    case VIEW_TMP_OVERLAY:
        return "tmp-overlay";
    }
    return "?";
}

static int
by_dest_cmp(const void *a, const void *b, void *plan)
{
    const struct plan_op *ops = ((const struct plan *)plan)->ops;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(ops[i].dest, ops[j].dest);
    return c ? c : (i > j) - (i < j);
}

void
view_init(struct view *v, const struct plan *plan)
{
    size_t n = plan->n_ops ? plan->n_ops : 1;
    v->plan = plan;
    v->source = xcalloc(n, sizeof *v->source);
    v->source_comps = xcalloc(n, sizeof *v->source_comps);
    v->by_dest = xcalloc(n, sizeof *v->by_dest);
    v->n_by_dest = 0;
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *op = &plan->ops[i];
        if (!skipped(op))
            v->by_dest[v->n_by_dest++] = i;
        if (op->kind != PLAN_OP_BIND && op->kind != PLAN_OP_RO_BIND &&
            op->kind != PLAN_OP_DEV_BIND)
            continue;
        /* bwrap follows symlinks in a bind source, so the real path is what is shown. */
        char *real = realpath(op->source, NULL);
        v->source[i] = real ? real : xstrdup(op->source);
        split(v->source[i], &v->source_comps[i]);
    }
    qsort_r(v->by_dest, v->n_by_dest, sizeof *v->by_dest, by_dest_cmp, (void *)plan);
}

void
view_free(struct view *v)
{
    if (v->source) {
        for (size_t i = 0; i < v->plan->n_ops; i++) {
            free(v->source[i]);
            strv_free(&v->source_comps[i]);
        }
    }
    free(v->source);
    free(v->source_comps);
    free(v->by_dest);
    v->source = NULL;
    v->source_comps = NULL;
    v->by_dest = NULL;
}

void
view_hits_free(struct view_hit *hits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(hits[i].path);
        free(hits[i].host);
    }
    free(hits);
}

/* Below src, the first component of comps[from ..] (literal ones only) that is a
 * symlink on the host: returns the pattern with that prefix replaced by where the link
 * leads (owned), or NULL when there is none or it leads nowhere. */
static char *
redirect_symlink(const char *src, const struct strv *comps, size_t from, bool literal)
{
    char *redirect = NULL;
    struct buf b = {0};
    buf_adds(&b, strcmp(src, "/") == 0 ? "" : src);
    for (size_t k = from; k < comps->n && !has_glob(comps->v[k], literal); k++) {
        buf_addc(&b, '/');
        buf_adds(&b, comps->v[k]);
        struct stat st;
        if (lstat(b.data, &st) < 0)
            break;
        if (S_ISLNK(st.st_mode)) {
            char *real = realpath(b.data, NULL);
            redirect = real ? join(real, comps->v, k + 1, comps->n) : xstrdup("");
            free(real);
            break;
        }
    }
    buf_free(&b);
    return redirect;
}

struct hits {
    struct view_hit *v;
    size_t n, cap;
};

static void
add_hit(struct hits *h, size_t op, char *path, char *host, bool writable, bool inside)
{
    for (size_t k = 0; k < h->n; k++) {
        if (h->v[k].op == op && strcmp(h->v[k].path, path) == 0) {
            h->v[k].writable |= writable;
            free(path);
            free(host);
            return;
        }
    }
    h->v = xgrow(h->v, &h->cap, h->n + 1, sizeof *h->v);
    h->v[h->n++] = (struct view_hit){op, path, host, writable, inside};
}

/* Matches one host source of op i (its components: sc) against the pattern
 * components. A symlink on the host below the source makes that name an alias: the
 * pattern it stands for is pushed to *redirects instead (bwrap, and the sandbox, follow
 * the link). */
static void
match_source(const struct view *v, size_t i, const char *src, const struct strv *sc,
             bool writable, const struct strv *pat, bool literal, struct hits *h,
             struct strv *redirects)
{
    const struct plan_op *op = &v->plan->ops[i];
    size_t k = 0;
    for (; k < sc->n && k < pat->n; k++) {
        if (literal ? strcmp(pat->v[k], sc->v[k]) != 0
                    : fnmatch(pat->v[k], sc->v[k], FNM_PERIOD) != 0)
            return;
    }
    char *path, *host;
    struct strv q = {0};
    if (k == sc->n) {
        /* The source is a match or an ancestor of one: the rest of the pattern lies
         * under the op's target. */
        char *redirect = redirect_symlink(src, pat, k, literal);
        if (redirect) {
            if (*redirect)
                strv_push_take(redirects, redirect);
            else
                free(redirect);
            return;
        }
        path = join(op->dest, pat->v, k, pat->n);
        host = join(src, pat->v, k, pat->n);
    } else {
        /* The source lies inside a match: all of it is. */
        path = xstrdup(op->dest);
        host = xstrdup(src);
    }
    split(path, &q);
    if (decider_pattern(v, &q, literal) == i)
        add_hit(h, i, path, host, writable, k < sc->n);
    else {
        free(path);
        free(host);
    }
    strv_free(&q);
}

/* match_source for a source that has no precomputed components (overlay layers). */
static void
match_path(const struct view *v, size_t i, const char *src, bool writable,
           const struct strv *pat, bool literal, struct hits *h, struct strv *redirects)
{
    struct strv sc = {0};
    split(src, &sc);
    match_source(v, i, src, &sc, writable, pat, literal, h, redirects);
    strv_free(&sc);
}

#define MAX_REDIRECTS 8

static void
find_into(const struct view *v, const char *pattern, bool literal, struct hits *h,
          struct strv *seen)
{
    for (size_t k = 0; k < seen->n; k++)
        if (strcmp(seen->v[k], pattern) == 0)
            return;
    strv_push(seen, pattern);
    struct strv pat = {0}, redirects = {0};
    split(pattern, &pat);
    for (size_t i = 0; i < v->plan->n_ops; i++) {
        const struct plan_op *op = &v->plan->ops[i];
        if (v->source[i]) {
            match_source(v, i, v->source[i], &v->source_comps[i], view_writes_host(op), &pat,
                         literal, h, &redirects);
        } else if (op->kind == PLAN_OP_OVERLAY || op->kind == PLAN_OP_RO_OVERLAY ||
                   op->kind == PLAN_OP_TMP_OVERLAY) {
            for (size_t l = 0; l < op->layers.n; l++)
                match_path(v, i, op->layers.v[l], false, &pat, literal, h, &redirects);
            if (op->kind == PLAN_OP_OVERLAY)
                match_path(v, i, op->source, true, &pat, literal, h, &redirects);
        }
    }
    for (size_t k = 0; k < redirects.n && seen->n < MAX_REDIRECTS; k++)
        find_into(v, redirects.v[k], literal, h, seen);
    strv_free(&pat);
    strv_free(&redirects);
}

static size_t
find(const struct view *v, const char *pattern, bool literal, struct view_hit **hits)
{
    struct hits h = {0};
    struct strv seen = {0};
    find_into(v, pattern, literal, &h, &seen);
    strv_free(&seen);
    *hits = h.v;
    return h.n;
}

size_t
view_find_host(const struct view *v, const char *pattern, struct view_hit **hits)
{
    return find(v, pattern, false, hits);
}

size_t
view_find_path(const struct view *v, const char *path, struct view_hit **hits)
{
    return find(v, path, true, hits);
}
