/* passes.c - see passes.h. */
#include "passes.h"

#include <dirent.h>
#include <errno.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "parse.h"

/* ---- normalize ------------------------------------------------------------------ */

/* Replaces *path by its canonical form; reports at loc. */
static void
normalize_one(char **path, const char *what, const struct plan_loc *loc, struct diag_sink *sink)
{
    if (!*path)
        return;
    char *norm = NULL;
    const char *why;
    if (path_normalize(*path, &norm, &why) < 0) {
        diag_error(sink, loc, "invalid %s '%s': %s", what, *path, why);
        return;
    }
    free(*path);
    *path = norm;
}

unsigned
pass_normalize(struct plan *plan, struct diag_sink *sink)
{
    unsigned before = sink->errors;
    for (size_t i = 0; i < plan->n_ops; i++) {
        struct plan_op *op = &plan->ops[i];
        const struct plan_loc *sloc = op->src_origin.file ? &op->src_origin : &op->origin;
        if (op->kind != PLAN_OP_SYMLINK)
            normalize_one(&op->source, "source", sloc, sink);
        normalize_one(&op->dest, "target", &op->origin, sink);
        normalize_one(&op->workdir, "workdir", &op->origin, sink);
        for (size_t l = 0; l < op->layers.n; l++)
            normalize_one(&op->layers.v[l], "overlay layer", &op->origin, sink);
    }
    return sink->errors - before;
}

/* ---- ordering helpers ----------------------------------------------------------- */

struct keyed {
    const char *dest;
    size_t idx; /* position in plan->ops */
};

static int
keyed_cmp(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    int c = path_order(a->dest, b->dest);
    if (c)
        return c;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

#define NONE ((size_t)-1)

static bool
is_ancestor_or_same(const char *a, const char *p)
{
    return strcmp(a, p) == 0 || path_is_ancestor(a, p);
}

/* parent[i] = the op (index into plan->ops) with the longest target that is an
 * ancestor of, or equal to and earlier than, op i's target; NONE if there is none.
 * Ops for which skip() is true take no part. */
static size_t *
nearest_parents(const struct plan *plan, bool (*skip)(const struct plan_op *))
{
    size_t n = plan->n_ops;
    struct keyed *k = xcalloc(n, sizeof *k);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!skip || !skip(&plan->ops[i]))
            k[m++] = (struct keyed){plan->ops[i].dest, i};
    qsort(k, m, sizeof *k, keyed_cmp);
    size_t *parent = xcalloc(n ? n : 1, sizeof *parent);
    for (size_t i = 0; i < n; i++)
        parent[i] = NONE;
    size_t *stack = xcalloc(m ? m : 1, sizeof *stack);
    size_t depth = 0;
    for (size_t i = 0; i < m; i++) {
        while (depth > 0 && !is_ancestor_or_same(plan->ops[stack[depth - 1]].dest, k[i].dest))
            depth--;
        parent[k[i].idx] = depth > 0 ? stack[depth - 1] : NONE;
        stack[depth++] = k[i].idx;
    }
    free(stack);
    free(k);
    return parent;
}

/* ---- duplicates ------------------------------------------------------------------ */

unsigned
pass_duplicates(struct plan *plan, struct diag_sink *sink)
{
    unsigned before = sink->errors;
    size_t n = plan->n_ops;
    struct keyed *k = xcalloc(n ? n : 1, sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){plan->ops[i].dest, i};
    qsort(k, n, sizeof *k, keyed_cmp);
    /* dup_of[i]: the first op with the same target, reported in declaration order. */
    size_t *dup_of = xcalloc(n ? n : 1, sizeof *dup_of);
    for (size_t i = 0; i < n; i++)
        dup_of[i] = NONE;
    for (size_t i = 1; i < n; i++) {
        size_t first = i;
        while (first > 0 && strcmp(k[first - 1].dest, k[i].dest) == 0)
            first--;
        if (first != i)
            dup_of[k[i].idx] = k[first].idx;
    }
    for (size_t i = 0; i < n; i++) {
        if (dup_of[i] == NONE)
            continue;
        const struct plan_op *op = &plan->ops[i], *first = &plan->ops[dup_of[i]];
        diag_error(sink, &op->origin, "duplicate mount target '%s'", op->dest);
        diag_note(sink, &first->origin, "'%s' is first mounted here", first->dest);
    }
    free(dup_of);
    free(k);
    return sink->errors - before;
}

/* ---- sort ------------------------------------------------------------------------ */

struct heap {
    size_t *v; /* op indices, min-heap by declaration index */
    size_t n;
    const struct plan_op *ops;
};

static bool
heap_less(const struct heap *h, size_t a, size_t b)
{
    return h->ops[h->v[a]].decl < h->ops[h->v[b]].decl;
}

static void
heap_swap(struct heap *h, size_t a, size_t b)
{
    size_t t = h->v[a];
    h->v[a] = h->v[b];
    h->v[b] = t;
}

static void
heap_push(struct heap *h, size_t x)
{
    size_t i = h->n++;
    h->v[i] = x;
    while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
        heap_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static size_t
heap_pop(struct heap *h)
{
    size_t top = h->v[0];
    h->v[0] = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && heap_less(h, l, m))
            m = l;
        if (r < h->n && heap_less(h, r, m))
            m = r;
        if (m == i)
            break;
        heap_swap(h, i, m);
        i = m;
    }
    return top;
}

unsigned
pass_sort(struct plan *plan, struct diag_sink *sink)
{
    (void)sink;
    size_t n = plan->n_ops;
    if (n < 2)
        return 0;
    /* Only the nearest ancestor matters: it comes after its own ancestors, so waiting
     * for it is waiting for all of them. The children of each op form a list. */
    size_t *parent = nearest_parents(plan, NULL);
    size_t *first_child = xcalloc(n, sizeof *first_child);
    size_t *next_sibling = xcalloc(n, sizeof *next_sibling);
    for (size_t i = 0; i < n; i++)
        first_child[i] = next_sibling[i] = NONE;
    for (size_t i = n; i-- > 0;) {
        if (parent[i] != NONE) {
            next_sibling[i] = first_child[parent[i]];
            first_child[parent[i]] = i;
        }
    }
    struct heap h = {xcalloc(n, sizeof(size_t)), 0, plan->ops};
    for (size_t i = 0; i < n; i++)
        if (parent[i] == NONE)
            heap_push(&h, i);
    struct plan_op *sorted = xcalloc(n, sizeof *sorted);
    size_t out = 0;
    while (h.n > 0) {
        size_t i = heap_pop(&h);
        sorted[out++] = plan->ops[i];
        for (size_t c = first_child[i]; c != NONE; c = next_sibling[c])
            heap_push(&h, c);
    }
    free(plan->ops);
    plan->ops = sorted;
    plan->cap_ops = n;
    free(h.v);
    free(first_child);
    free(next_sibling);
    free(parent);
    return 0;
}

/* ---- host lookups ---------------------------------------------------------------- */

enum host_state {
    HOST_EXISTS,
    HOST_MISSING,
    HOST_SYMLINK, /* a symlink before the last component */
    HOST_NOT_DIR, /* a non-directory before the last component */
};

/* Walks rel (a path below base, "" for base itself) on the host one component at a
 * time, without following symlinks on the way (nor at the end unless last_may_link).
 * *where gets the offending host path. */
static enum host_state
host_lookup(const char *base, const char *rel, bool last_may_link, char **where)
{
    struct buf p = {0};
    buf_adds(&p, strcmp(base, "/") == 0 ? "" : base);
    const char *r = rel;
    enum host_state st = HOST_EXISTS;
    while (*r) {
        while (*r == '/')
            r++;
        const char *e = strchr(r, '/');
        size_t len = e ? (size_t)(e - r) : strlen(r);
        buf_addc(&p, '/');
        buf_add(&p, r, len);
        struct stat sb;
        if (lstat(p.data, &sb) < 0) {
            st = HOST_MISSING;
            break;
        }
        if ((e || !last_may_link) && S_ISLNK(sb.st_mode)) {
            st = HOST_SYMLINK;
            break;
        }
        if (e && !S_ISDIR(sb.st_mode)) {
            st = HOST_NOT_DIR;
            break;
        }
        r += len;
    }
    *where = p.data ? p.data : xstrdup(base);
    return st;
}

static const char *
rel_below(const char *anc, const char *path)
{
    if (strcmp(anc, "/") == 0)
        return path;
    return path + strlen(anc);
}

/* ---- optimize ------------------------------------------------------------------- */

static bool
is_plain_bind(const struct plan_op *op)
{
    return (op->kind == PLAN_OP_BIND || op->kind == PLAN_OP_RO_BIND ||
            op->kind == PLAN_OP_DEV_BIND) &&
           !op->optional && op->create_source == PLAN_CREATE_NONE;
}

static bool
skip_remount(const struct plan_op *op)
{
    return op->kind == PLAN_OP_REMOUNT_RO;
}

unsigned
pass_optimize(struct plan *plan, struct diag_sink *sink)
{
    (void)sink;
    size_t *parent = nearest_parents(plan, skip_remount);
    bool *drop = xcalloc(plan->n_ops ? plan->n_ops : 1, sizeof *drop);
    for (size_t i = 0; i < plan->n_ops; i++) {
        const struct plan_op *c = &plan->ops[i];
        size_t a = parent[i];
        if (a == NONE || !is_plain_bind(c))
            continue;
        const struct plan_op *p = &plan->ops[a];
        if (p->kind != c->kind || !is_plain_bind(p) || strcmp(p->dest, c->dest) == 0)
            continue;
        const char *rel = rel_below(p->dest, c->dest);
        char *same = xasprintf("%s%s", strcmp(p->source, "/") == 0 ? "" : p->source, rel);
        char *where = NULL;
        drop[i] = strcmp(same, c->source) == 0 &&
                  host_lookup(p->source, rel, false, &where) == HOST_EXISTS;
        free(where);
        free(same);
    }
    size_t out = 0;
    for (size_t i = 0; i < plan->n_ops; i++) {
        if (drop[i])
            plan_op_free(&plan->ops[i]);
        else
            plan->ops[out++] = plan->ops[i];
    }
    plan->n_ops = out;
    free(drop);
    free(parent);
    return 0;
}

/* ---- room for mount points ------------------------------------------------------ */

static bool
skip_for_room(const struct plan_op *op)
{
    return op->kind == PLAN_OP_REMOUNT_RO;
}

/* An op that entirely replaces what is at its target, so a per-entry bind of the same
 * path would be hidden at once. */
static bool
covers(const struct plan_op *op)
{
    switch (op->kind) {
    case PLAN_OP_BIND:
    case PLAN_OP_RO_BIND:
    case PLAN_OP_DEV_BIND:
        return !op->optional;
    case PLAN_OP_TMPFS:
    case PLAN_OP_PROC:
    case PLAN_OP_DEV:
    case PLAN_OP_OVERLAY:
    case PLAN_OP_RO_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
        return true;
    case PLAN_OP_DIR:
    case PLAN_OP_SYMLINK:
    case PLAN_OP_REMOUNT_RO:
        return false;
    }
    return false;
}

static int
name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name of the kernel filesystem at `path` when it is one whose entries are made by
 * the kernel and come and go (processes, devices, cgroups...), else NULL. A copy of
 * such a directory's entries would be a snapshot of the compiler's own moment: /proc's
 * "self" would point at nookc's PID. */
static const char *
live_kernel_fs(const char *path)
{
    static const struct {
        long magic;
        const char *name;
    } kinds[] = {
        {PROC_SUPER_MAGIC, "proc"},      {SYSFS_MAGIC, "sysfs"},
        {CGROUP_SUPER_MAGIC, "cgroup"},  {CGROUP2_SUPER_MAGIC, "cgroup2"},
        {DEVPTS_SUPER_MAGIC, "devpts"},  {DEBUGFS_MAGIC, "debugfs"},
        {TRACEFS_MAGIC, "tracefs"},      {SECURITYFS_MAGIC, "securityfs"},
        {SELINUX_MAGIC, "selinuxfs"},    {BPF_FS_MAGIC, "bpf"},
        {PSTOREFS_MAGIC, "pstore"},      {EFIVARFS_MAGIC, "efivarfs"},
        {BINFMTFS_MAGIC, "binfmt_misc"},
    };
    struct statfs sf;
    if (statfs(path, &sf) < 0)
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((unsigned long)sf.f_type == (unsigned long)kinds[i].magic)
            return kinds[i].name;
    return NULL;
}

/* Replaces the read-only bind at index e by a tmpfs (none for '/', which is bwrap's
 * own tmpfs root) plus one read-only bind or symlink per host entry, and appends the
 * remount. Returns 0, or -1 after reporting why no sound lowering exists. */
static int
expand_ro_bind(struct plan *plan, size_t e, const struct plan_op *blocked,
               struct diag_sink *sink)
{
    struct plan_op *E = &plan->ops[e];
    struct stat st;
    if (E->optional || stat(E->source, &st) < 0 || !S_ISDIR(st.st_mode)) {
        diag_error(sink, &blocked->origin,
                   "cannot mount at '%s': it does not exist under the read-only mount at "
                   "'%s', and that mount cannot be opened up (%s)",
                   blocked->dest, E->dest,
                   E->optional ? "it is optional" : "its source is not an existing directory");
        diag_note(sink, &E->origin, "read-only mount of '%s' declared here", E->dest);
        return -1;
    }
    const char *kernel_fs = live_kernel_fs(E->source);
    if (kernel_fs) {
        diag_error(sink, &blocked->origin,
                   "cannot mount at '%s': it does not exist under the read-only mount at "
                   "'%s', and that mount cannot be opened up ('%s' is a %s filesystem, whose "
                   "entries the kernel makes and removes)",
                   blocked->dest, E->dest, E->source, kernel_fs);
        diag_note(sink, &E->origin, "read-only mount of '%s' declared here", E->dest);
        return -1;
    }
    DIR *d = opendir(E->source);
    if (!d) {
        diag_error(sink, &blocked->origin,
                   "cannot mount at '%s': cannot list '%s' to open up the read-only mount "
                   "at '%s': %s",
                   blocked->dest, E->source, E->dest, strerror(errno));
        return -1;
    }
    struct strv names = {0};
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            strv_push(&names, de->d_name);
    closedir(d);
    if (names.n)
        qsort(names.v, names.n, sizeof *names.v, name_cmp);

    /* Targets that some op replaces entirely need no per-entry bind. */
    size_t n_old = plan->n_ops;
    struct plan_op *old = plan->ops;
    struct plan_op *ops = NULL;
    size_t n = 0, cap = 0;
    cleanup_free char *src = xstrdup(strcmp(E->source, "/") == 0 ? "" : E->source);
    cleanup_free char *dst = xstrdup(strcmp(E->dest, "/") == 0 ? "" : E->dest);
    for (size_t i = 0; i <= e; i++) {
        ops = xgrow(ops, &cap, n + 1, sizeof *ops);
        ops[n++] = old[i];
    }
    struct plan_op *tm = &ops[e];
    struct plan_loc origin = {0};
    plan_loc_copy(&origin, &E->origin);
    char *tdest = xstrdup(E->dest);
    if (*dst) {
        /* The directory itself becomes a tmpfs with the host directory's mode. */
        free(tm->source);
        tm->source = NULL;
        tm->kind = PLAN_OP_TMPFS;
        tm->create_source = PLAN_CREATE_NONE;
        tm->perms = (st.st_mode & 07777) == 0755 ? -1 : (int)(st.st_mode & 07777);
    } else {
        plan_op_free(tm);
        n--;
    }
    for (size_t k = 0; k < names.n; k++) {
        char *child = xasprintf("%s/%s", dst, names.v[k]);
        bool covered = false;
        for (size_t i = e + 1; i < n_old && !covered; i++)
            covered = covers(&old[i]) && strcmp(old[i].dest, child) == 0;
        if (covered) {
            free(child);
            continue;
        }
        char *host = xasprintf("%s/%s", src, names.v[k]);
        struct stat cs;
        ops = xgrow(ops, &cap, n + 1, sizeof *ops);
        struct plan_op *op = &ops[n++];
        memset(op, 0, sizeof *op);
        op->perms = -1;
        op->decl = old[e].decl;
        op->dest = child;
        plan_loc_copy(&op->origin, &origin);
        char link[4096];
        ssize_t ll;
        if (lstat(host, &cs) == 0 && S_ISLNK(cs.st_mode) &&
            (ll = readlink(host, link, sizeof link - 1)) > 0) {
            link[ll] = '\0';
            op->kind = PLAN_OP_SYMLINK;
            op->source = xstrdup(link);
            free(host);
        } else {
            op->kind = PLAN_OP_RO_BIND;
            op->source = host;
        }
    }
    for (size_t i = e + 1; i < n_old; i++) {
        ops = xgrow(ops, &cap, n + 1, sizeof *ops);
        ops[n++] = old[i];
    }
    ops = xgrow(ops, &cap, n + 1, sizeof *ops);
    struct plan_op *rm = &ops[n++];
    memset(rm, 0, sizeof *rm);
    rm->kind = PLAN_OP_REMOUNT_RO;
    rm->perms = -1;
    rm->dest = tdest;
    rm->decl = old[e].decl;
    rm->origin = origin;
    free(old);
    plan->ops = ops;
    plan->n_ops = n;
    plan->cap_ops = cap;
    strv_free(&names);
    return 0;
}

/* Checks op i against its enclosing mount. Returns 1 when the plan was changed (a
 * read-only bind was opened up), 0 when the mount point is fine, -1 on error. */
static int
room_for(struct plan *plan, size_t i, const size_t *parent, struct diag_sink *sink)
{
    const struct plan_op *op = &plan->ops[i];
    size_t a = parent[i];
    if (a != NONE && strcmp(plan->ops[a].dest, op->dest) == 0)
        return 0; /* something is already mounted exactly there */
    while (a != NONE && plan->ops[a].kind == PLAN_OP_DIR)
        a = parent[a];
    if (a == NONE)
        return 0; /* bwrap's root is a writable tmpfs */
    const struct plan_op *E = &plan->ops[a];
    const char *rel = rel_below(E->dest, op->dest);
    char *where = NULL;
    enum host_state st;
    switch (E->kind) {
    case PLAN_OP_TMPFS:
    case PLAN_OP_DEV:
    case PLAN_OP_BIND:
    case PLAN_OP_DEV_BIND:
    case PLAN_OP_OVERLAY:
    case PLAN_OP_TMP_OVERLAY:
    case PLAN_OP_DIR:
    case PLAN_OP_REMOUNT_RO:
        return 0; /* writable when the op runs */
    case PLAN_OP_SYMLINK:
        diag_error(sink, &op->origin,
                   "cannot mount at '%s': '%s' is a symlink to '%s' and bwrap would follow it; "
                   "use the path it points to",
                   op->dest, E->dest, E->source);
        return -1;
    case PLAN_OP_PROC:
        st = host_lookup("/proc", rel, true, &where);
        free(where);
        if (st == HOST_EXISTS)
            return 0;
        diag_error(sink, &op->origin,
                   "cannot mount at '%s': it does not exist in the proc filesystem mounted at "
                   "'%s', where nothing can be created",
                   op->dest, E->dest);
        return -1;
    case PLAN_OP_RO_OVERLAY:
        for (size_t l = 0; l < E->layers.n; l++) {
            st = host_lookup(E->layers.v[l], rel, true, &where);
            free(where);
            if (st == HOST_EXISTS)
                return 0;
        }
        diag_error(sink, &op->origin,
                   "cannot mount at '%s': it does not exist in the read-only overlay at '%s'",
                   op->dest, E->dest);
        return -1;
    case PLAN_OP_RO_BIND:
        break;
    }
    st = host_lookup(E->source, rel, true, &where);
    int r = 0;
    switch (st) {
    case HOST_EXISTS:
        break;
    case HOST_MISSING:
        r = expand_ro_bind(plan, a, op, sink) < 0 ? -1 : 1;
        break;
    case HOST_SYMLINK:
        diag_error(sink, &op->origin,
                   "cannot mount at '%s': '%s' on the host is a symlink and bwrap would follow "
                   "it; use the path it points to",
                   op->dest, where);
        r = -1;
        break;
    case HOST_NOT_DIR:
        diag_error(sink, &op->origin,
                   "cannot mount at '%s': '%s' on the host is not a directory", op->dest,
                   where);
        r = -1;
        break;
    }
    free(where);
    return r;
}

unsigned
pass_room(struct plan *plan, struct diag_sink *sink)
{
    unsigned before = sink->errors;
    /* Each opening-up changes the plan, so the enclosing mounts are recomputed; every
     * round removes one read-only bind on the way to a missing mount point, and the
     * host tree is finite, so this ends. */
    for (;;) {
        size_t *parent = nearest_parents(plan, skip_for_room);
        int changed = 0;
        for (size_t i = 0; i < plan->n_ops && !changed; i++) {
            if (plan->ops[i].kind == PLAN_OP_REMOUNT_RO)
                continue;
            int r = room_for(plan, i, parent, sink);
            if (r > 0)
                changed = 1;
        }
        free(parent);
        if (!changed || sink->errors != before)
            break;
    }
    return sink->errors - before;
}

/* ---- target version and limits -------------------------------------------------- */

/* The profile key behind a plan-wide option, for the position of its diagnostics. */
static const char *
option_key(const char *option)
{
    static const struct {
        const char *option;
        const char *key;
    } keys[] = {
        {"--die-with-parent", "die_with_parent"},
        {"--new-session", "new_session"},
        {"--cap-drop", "capabilities"},
        {"--cap-add", "capabilities"},
        {"--hostname", "hostname"},
        {"--clearenv", "unset_vars"},
        {"--unsetenv", "unset_vars"},
        {"--setenv", "env_vars"},
        {"--chdir", "chdir"},
        /* the command comes from the command line: no such key, the document's start */
        {"--", "command"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].option, option) == 0)
            return keys[i].key;
    return "unshare"; /* the --unshare-* options */
}

/* The final check walks the one lowering (plan_lower): the options it uses against the
 * target version, the number of arguments and the length of each. */
struct check {
    struct plan *plan;
    struct diag_sink *sink;
    key_loc_fn key_loc;
    void *key_ctx;
    const struct plan_op *last_op; /* an op's options come together: report each once */
    struct strv last_options;
    struct strv global_reported; /* plan-wide options already reported */
    size_t n_args;
    bool long_reported;
};

/* Where a diagnostic about `option` points (borrowed): the op's origin, or the profile
 * key behind a plan-wide option. */
static struct plan_loc
check_loc(struct check *c, const struct plan_op *op, const char *option)
{
    return op ? op->origin : c->key_loc(c->key_ctx, option_key(option));
}

static void
check_long_word(struct check *c, const struct plan_op *op, const char *option, const char *word)
{
    size_t len = strlen(word);
    if (len < PLAN_MAX_ARG_LEN || c->long_reported)
        return;
    struct plan_loc loc = check_loc(c, op, option);
    diag_error(c->sink, &loc,
               "a bwrap argument is %zu bytes long; the kernel accepts at most %d", len,
               PLAN_MAX_ARG_LEN - 1);
    c->long_reported = true;
}

static void
check_option(void *ctx, const struct plan_op *op, const char *const *words, size_t n)
{
    struct check *c = ctx;
    c->n_args += n;
    for (size_t i = 0; i < n; i++)
        check_long_word(c, op, words[0], words[i]);
    const struct plan_version *since = plan_bwrap_option_since(words[0]);
    if (!since || plan_version_cmp(since, &c->plan->target) <= 0)
        return;
    /* Once per op (an overlay repeats --overlay-src) and once for a plan-wide option. */
    if (op != c->last_op) {
        strv_free(&c->last_options);
        c->last_op = op;
    }
    struct strv *seen = op ? &c->last_options : &c->global_reported;
    if (strv_has(seen, words[0]))
        return;
    strv_push(seen, words[0]);
    struct plan_loc loc = check_loc(c, op, words[0]);
    diag_error(c->sink, &loc,
               "bwrap option '%s' needs bubblewrap %u.%u.%u or newer; the target is %u.%u.%u "
               "(see --target-bwrap)",
               words[0], since->major, since->minor, since->patch, c->plan->target.major,
               c->plan->target.minor, c->plan->target.patch);
}

unsigned
pass_check(struct plan *plan, struct diag_sink *sink, key_loc_fn key_loc, void *ctx)
{
    unsigned before = sink->errors;
    struct check c = {.plan = plan, .sink = sink, .key_loc = key_loc, .key_ctx = ctx};
    plan_lower(plan, check_option, &c);
    c.n_args += 1 + plan->command.n; /* "--" and the command */
    for (size_t i = 0; i < plan->command.n; i++)
        check_long_word(&c, NULL, "--", plan->command.v[i]);
    if (c.n_args + 1 > PLAN_MAX_ARGS) {
        struct plan_loc loc = key_loc(ctx, "mounts");
        diag_error(sink, &loc,
                   "the sandbox needs %zu bwrap arguments; bwrap accepts at most %d",
                   c.n_args + 1, PLAN_MAX_ARGS);
    }
    strv_free(&c.last_options);
    strv_free(&c.global_reported);
    return sink->errors - before;
}
