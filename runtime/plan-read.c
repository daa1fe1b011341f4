/* plan-read.c - the strict plan reader (plan_from_json, see plan-json.h).
 *
 * A plan is run with the user's authority, so it is validated whole before anything
 * happens: duplicate keys, NUL, trailing data and invalid UTF-8 are refused by jansson;
 * here, every key must be known, every value of the right type and in range, every path
 * absolute and canonical. The first problem is reported with the JSON path of the
 * value ("ops[3].dest").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names.h"
#include "plan-json.h"

#define PLAN_MAX_DEPTH 8
#define PLAN_MAX_TIMEOUT_MS 31536000000ULL /* 365 days */

struct rctx {
    const char *name; /* plan file name for messages */
    char *err;        /* owned: the first error */
};

static int rerr(struct rctx *c, const char *path, const char *fmt, ...) NOOK_PRINTF(3, 4);

static int
rerr(struct rctx *c, const char *path, const char *fmt, ...)
{
    if (c->err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvasprintf(fmt, ap);
    va_end(ap);
    c->err = xasprintf("%s: %s: error: %s", c->name, path, msg);
    free(msg);
    return -1;
}

static int
depth_ok(const json_t *v, int depth)
{
    if (depth > PLAN_MAX_DEPTH)
        return 0;
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, x) if (!depth_ok(x, depth + 1)) return 0;
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (!depth_ok(x, depth + 1)) return 0;
    }
    return 1;
}

/* Refuses keys of obj not in `allowed` (NULL-terminated). */
static int
known_keys(struct rctx *c, const json_t *obj, const char *path, const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, k) == 0;
        if (!ok) {
            char *p = *path ? xasprintf("%s.%s", path, k) : xstrdup(k);
            rerr(c, p, "unknown key '%s'", k);
            free(p);
            return -1;
        }
    }
    return 0;
}

static char *
sub(const char *path, const char *key)
{
    return *path ? xasprintf("%s.%s", path, key) : xstrdup(key);
}

/* A string member: *out owned (NULL when absent and !required). */
static int
get_str(struct rctx *c, const json_t *obj, const char *path, const char *key, bool required,
        char **out)
{
    json_t *v = json_object_get(obj, key);
    cleanup_free char *p = sub(path, key);
    if (!v) {
        if (required)
            return rerr(c, p, "missing required key");
        return 0;
    }
    if (!json_is_string(v))
        return rerr(c, p, "expected a string");
    if (json_string_length(v) >= PLAN_MAX_ARG_LEN)
        return rerr(c, p, "string is longer than %d bytes", PLAN_MAX_ARG_LEN - 1);
    *out = xstrdup(json_string_value(v));
    return 0;
}

static int
get_bool(struct rctx *c, const json_t *obj, const char *path, const char *key, bool required,
         bool *out)
{
    json_t *v = json_object_get(obj, key);
    cleanup_free char *p = sub(path, key);
    if (!v)
        return required ? rerr(c, p, "missing required key") : 0;
    if (!json_is_boolean(v))
        return rerr(c, p, "expected true or false");
    *out = json_is_true(v);
    return 0;
}

static int
get_uint(struct rctx *c, const json_t *obj, const char *path, const char *key, uint64_t min,
         uint64_t max, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    cleanup_free char *p = sub(path, key);
    if (!v)
        return 0;
    if (!json_is_integer(v))
        return rerr(c, p, "expected an integer");
    json_int_t n = json_integer_value(v);
    if (n < 0 || (uint64_t)n < min || (uint64_t)n > max)
        return rerr(c, p, "%" JSON_INTEGER_FORMAT " is out of range (%" PRIu64 "..%" PRIu64 ")",
                    n, min, max);
    *out = (uint64_t)n;
    return 0;
}

/* An absolute, canonical path: what the compiler writes. Anything else was not made by
 * nookc or was edited, and bwrap would take it at face value. */
static int
get_path(struct rctx *c, const json_t *obj, const char *path, const char *key, bool required,
         char **out)
{
    char *s = NULL;
    if (get_str(c, obj, path, key, required, &s) < 0 || !s)
        return c->err ? -1 : 0;
    char *norm = NULL;
    const char *why;
    cleanup_free char *p = sub(path, key);
    if (path_normalize(s, &norm, &why) < 0) {
        rerr(c, p, "'%s': %s", s, why);
        free(s);
        return -1;
    }
    bool canonical = strcmp(norm, s) == 0;
    free(norm);
    if (!canonical) {
        rerr(c, p, "'%s' is not in canonical form", s);
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* An array of strings into sv; each checked by check() when given. */
static int
get_strv(struct rctx *c, const json_t *obj, const char *path, const char *key, bool required,
         struct strv *sv, int (*check)(struct rctx *, const char *path, const char *s))
{
    json_t *v = json_object_get(obj, key);
    cleanup_free char *p = sub(path, key);
    if (!v)
        return required ? rerr(c, p, "missing required key") : 0;
    if (!json_is_array(v))
        return rerr(c, p, "expected an array");
    if (json_array_size(v) > PLAN_MAX_ARGS)
        return rerr(c, p, "more than %d entries", PLAN_MAX_ARGS);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x)
    {
        cleanup_free char *ip = xasprintf("%s[%zu]", p, i);
        if (!json_is_string(x))
            return rerr(c, ip, "expected a string");
        if (json_string_length(x) >= PLAN_MAX_ARG_LEN)
            return rerr(c, ip, "string is longer than %d bytes", PLAN_MAX_ARG_LEN - 1);
        const char *s = json_string_value(x);
        if (check && check(c, ip, s) < 0)
            return -1;
        strv_push(sv, s);
    }
    return 0;
}

static int
check_abs(struct rctx *c, const char *path, const char *s)
{
    char *norm = NULL;
    const char *why;
    if (path_normalize(s, &norm, &why) < 0)
        return rerr(c, path, "'%s': %s", s, why);
    bool same = strcmp(norm, s) == 0;
    free(norm);
    return same ? 0 : rerr(c, path, "'%s' is not in canonical form", s);
}

static int
check_env(struct rctx *c, const char *path, const char *s)
{
    const char *why;
    return check_env_name(s, strlen(s), &why) < 0 ? rerr(c, path, "%s", why) : 0;
}

static int
check_cap(struct rctx *c, const char *path, const char *s, bool allow_all)
{
    char *canon = NULL;
    const char *why;
    if (parse_cap(s, &canon, &why) < 0)
        return rerr(c, path, "%s '%s'", why, s);
    bool same = strcmp(canon, s) == 0 && (allow_all || strcmp(s, "ALL") != 0);
    free(canon);
    return same ? 0
                : rerr(c, path, "expected %s, got '%s'",
                       allow_all ? "ALL or a CAP_ name" : "a CAP_ name", s);
}

static int
check_cap_add(struct rctx *c, const char *path, const char *s)
{
    return check_cap(c, path, s, true);
}

static int
check_cap_drop(struct rctx *c, const char *path, const char *s)
{
    return check_cap(c, path, s, false);
}

/* "file:line:col" -> loc; anything else is kept as the file with no line. */
static void
parse_origin(const char *s, struct plan_loc *loc)
{
    const char *c2 = strrchr(s, ':');
    const char *c1 = NULL;
    if (c2)
        for (const char *p = c2 - 1; p >= s && !c1; p--)
            if (*p == ':')
                c1 = p;
    unsigned line = 0, col = 0;
    char tail;
    if (c1 && sscanf(c1 + 1, "%u:%u%c", &line, &col, &tail) == 2) {
        char *file = xstrndup(s, (size_t)(c1 - s));
        plan_loc_set(loc, file, line, col);
        free(file);
    } else {
        plan_loc_set(loc, s, 0, 0);
    }
}

static int
read_op(struct rctx *c, const json_t *o, size_t idx, struct plan *plan)
{
    cleanup_free char *p = xasprintf("ops[%zu]", idx);
    if (!json_is_object(o))
        return rerr(c, p, "expected an object");
    char *kind_name = NULL;
    if (get_str(c, o, p, "op", true, &kind_name) < 0)
        return -1;
    int kind = plan_op_kind_from_name(kind_name);
    if (kind < 0) {
        cleanup_free char *kp = sub(p, "op");
        rerr(c, kp, "unknown op '%s'", kind_name);
        free(kind_name);
        return -1;
    }
    free(kind_name);
    bool bind = kind == PLAN_OP_BIND || kind == PLAN_OP_RO_BIND || kind == PLAN_OP_DEV_BIND;
    bool overlay =
        kind == PLAN_OP_OVERLAY || kind == PLAN_OP_RO_OVERLAY || kind == PLAN_OP_TMP_OVERLAY;
    const char *keys[12] = {"op", "dest", "origin"};
    size_t nk = 3;
    if (bind) {
        keys[nk++] = "source";
        keys[nk++] = "optional";
        keys[nk++] = "create_source";
    } else if (kind == PLAN_OP_TMPFS) {
        keys[nk++] = "size";
        keys[nk++] = "perms";
    } else if (kind == PLAN_OP_DIR) {
        keys[nk++] = "perms";
    } else if (kind == PLAN_OP_SYMLINK) {
        keys[nk++] = "target";
    } else if (overlay) {
        keys[nk++] = "layers";
        if (kind == PLAN_OP_OVERLAY) {
            keys[nk++] = "source";
            keys[nk++] = "workdir";
        }
    }
    keys[nk] = NULL;
    if (known_keys(c, o, p, keys) < 0)
        return -1;

    struct plan_op *op = plan_add_op(plan, (enum plan_op_kind)kind);
    char *origin = NULL;
    if (get_path(c, o, p, "dest", true, &op->dest) < 0 ||
        get_str(c, o, p, "origin", false, &origin) < 0)
        return -1;
    if (origin) {
        parse_origin(origin, &op->origin);
        free(origin);
    }
    if (bind || kind == PLAN_OP_OVERLAY) {
        if (get_path(c, o, p, "source", true, &op->source) < 0)
            return -1;
    }
    if (bind) {
        char *create = NULL;
        if (get_bool(c, o, p, "optional", false, &op->optional) < 0 ||
            get_str(c, o, p, "create_source", false, &create) < 0)
            return -1;
        if (create) {
            cleanup_free char *cp = sub(p, "create_source");
            if (strcmp(create, "dir") == 0)
                op->create_source = PLAN_CREATE_DIR;
            else if (strcmp(create, "file") == 0)
                op->create_source = PLAN_CREATE_FILE;
            else
                rerr(c, cp, "expected \"dir\" or \"file\", got '%s'", create);
            free(create);
            if (c->err)
                return -1;
        }
    }
    if (kind == PLAN_OP_TMPFS &&
        get_uint(c, o, p, "size", 1, (uint64_t)INT64_MAX, &op->size) < 0)
        return -1;
    if (kind == PLAN_OP_TMPFS || kind == PLAN_OP_DIR) {
        char *perms = NULL;
        if (get_str(c, o, p, "perms", false, &perms) < 0)
            return -1;
        if (perms) {
            cleanup_free char *pp = sub(p, "perms");
            bool ok = strlen(perms) == 4 && strspn(perms, "01234567") == 4;
            if (ok)
                op->perms = (int)strtol(perms, NULL, 8);
            else
                rerr(c, pp, "expected four octal digits such as \"0700\", got '%s'", perms);
            free(perms);
            if (!ok)
                return -1;
        }
    }
    if (kind == PLAN_OP_SYMLINK) {
        if (get_str(c, o, p, "target", true, &op->source) < 0)
            return -1;
        if (!*op->source) {
            cleanup_free char *tp = sub(p, "target");
            return rerr(c, tp, "must not be empty");
        }
    }
    if (overlay) {
        if (get_strv(c, o, p, "layers", true, &op->layers, check_abs) < 0)
            return -1;
        size_t need = kind == PLAN_OP_RO_OVERLAY ? 2 : 1;
        if (op->layers.n < need) {
            cleanup_free char *lp = sub(p, "layers");
            return rerr(c, lp, "'%s' needs at least %zu layer%s", plan_op_kind_name(op->kind),
                        need, need > 1 ? "s" : "");
        }
        if (kind == PLAN_OP_OVERLAY && get_path(c, o, p, "workdir", true, &op->workdir) < 0)
            return -1;
    }
    return 0;
}

static int
read_plan(struct rctx *c, const json_t *root, struct plan *plan)
{
    static const char *const top_keys[] = {
        "nook_plan",   "name",       "profile",      "bwrap", "target_bwrap", "ops",
        "namespaces",  "hostname",   "capabilities", "env",   "chdir",        "die_with_parent",
        "new_session", "timeout_ms", "command",      NULL};
    if (!json_is_object(root))
        return rerr(c, "(root)", "expected an object");
    json_t *ver = json_object_get(root, "nook_plan");
    if (!ver)
        return rerr(c, "nook_plan", "missing required key (not an agent-nook plan?)");
    if (!json_is_integer(ver) || json_integer_value(ver) != PLAN_VERSION)
        return rerr(c, "nook_plan",
                    "unsupported plan version (this nook-exec reads version %d)", PLAN_VERSION);
    if (known_keys(c, root, "", top_keys) < 0)
        return -1;
    char *target = NULL;
    if (get_str(c, root, "", "name", true, &plan->name) < 0 ||
        get_str(c, root, "", "profile", false, &plan->profile) < 0 ||
        get_str(c, root, "", "bwrap", false, &plan->bwrap) < 0 ||
        get_str(c, root, "", "target_bwrap", true, &target) < 0)
        return -1;
    int vr = plan_version_parse(target, &plan->target);
    free(target);
    if (plan->bwrap && plan->bwrap[0] != '/')
        return rerr(c, "bwrap", "'%s' is not an absolute path", plan->bwrap);
    if (vr < 0)
        return rerr(c, "target_bwrap", "expected a version such as \"0.8.0\"");

    json_t *ops = json_object_get(root, "ops");
    if (!ops)
        return rerr(c, "ops", "missing required key");
    if (!json_is_array(ops))
        return rerr(c, "ops", "expected an array");
    if (json_array_size(ops) > PLAN_MAX_ARGS)
        return rerr(c, "ops", "more than %d entries", PLAN_MAX_ARGS);
    size_t i;
    json_t *o;
    json_array_foreach(ops, i, o) if (read_op(c, o, i, plan) < 0) return -1;

    struct strv ns = {0};
    if (get_strv(c, root, "", "namespaces", true, &ns, NULL) < 0) {
        strv_free(&ns);
        return -1;
    }
    for (size_t k = 0; k < ns.n; k++) {
        int bit = -1;
        for (int b = 0; b < PLAN_NS_COUNT; b++)
            if (strcmp(plan_ns_names[b], ns.v[k]) == 0)
                bit = b;
        cleanup_free char *np = xasprintf("namespaces[%zu]", k);
        if (bit < 0)
            rerr(c, np, "unknown namespace '%s'", ns.v[k]);
        else if (plan->namespaces & (1u << bit))
            rerr(c, np, "namespace '%s' listed twice", ns.v[k]);
        else
            plan->namespaces |= 1u << bit;
    }
    strv_free(&ns);
    if (c->err)
        return -1;

    if (get_str(c, root, "", "hostname", false, &plan->hostname) < 0)
        return -1;
    if (plan->hostname) {
        const char *why;
        if (check_hostname(plan->hostname, &why) < 0)
            return rerr(c, "hostname", "%s", why);
        if (!(plan->namespaces & PLAN_NS_UTS))
            return rerr(c, "hostname", "needs \"uts\" in namespaces");
    }

    json_t *caps = json_object_get(root, "capabilities");
    static const char *const cap_keys[] = {"add", "drop", NULL};
    if (!caps)
        return rerr(c, "capabilities", "missing required key");
    if (!json_is_object(caps))
        return rerr(c, "capabilities", "expected an object");
    if (known_keys(c, caps, "capabilities", cap_keys) < 0 ||
        get_strv(c, caps, "capabilities", "add", true, &plan->cap_add, check_cap_add) < 0 ||
        get_strv(c, caps, "capabilities", "drop", true, &plan->cap_drop, check_cap_drop) < 0)
        return -1;

    json_t *env = json_object_get(root, "env");
    static const char *const env_keys[] = {"clear", "unset", "set", NULL};
    if (!env)
        return rerr(c, "env", "missing required key");
    if (!json_is_object(env))
        return rerr(c, "env", "expected an object");
    if (known_keys(c, env, "env", env_keys) < 0 ||
        get_bool(c, env, "env", "clear", true, &plan->clearenv) < 0 ||
        get_strv(c, env, "env", "unset", true, &plan->unsetenv, check_env) < 0)
        return -1;
    json_t *set = json_object_get(env, "set");
    if (!set)
        return rerr(c, "env.set", "missing required key");
    if (!json_is_array(set))
        return rerr(c, "env.set", "expected an array");
    json_t *pair;
    static const char *const pair_keys[] = {"name", "value", NULL};
    json_array_foreach(set, i, pair)
    {
        cleanup_free char *pp = xasprintf("env.set[%zu]", i);
        if (!json_is_object(pair))
            return rerr(c, pp, "expected an object");
        char *name = NULL, *value = NULL;
        if (known_keys(c, pair, pp, pair_keys) < 0 ||
            get_str(c, pair, pp, "name", true, &name) < 0 ||
            get_str(c, pair, pp, "value", true, &value) < 0) {
            free(name);
            return -1;
        }
        strv_push_take(&plan->setenv_names, name);
        strv_push_take(&plan->setenv_values, value);
        cleanup_free char *np = sub(pp, "name");
        if (check_env(c, np, name) < 0)
            return -1;
    }

    if (get_path(c, root, "", "chdir", false, &plan->chdir) < 0 ||
        get_bool(c, root, "", "die_with_parent", true, &plan->die_with_parent) < 0 ||
        get_bool(c, root, "", "new_session", true, &plan->new_session) < 0 ||
        get_uint(c, root, "", "timeout_ms", 1, PLAN_MAX_TIMEOUT_MS, &plan->timeout_ms) < 0 ||
        get_strv(c, root, "", "command", false, &plan->command, NULL) < 0)
        return -1;
    if (json_object_get(root, "command") && (plan->command.n == 0 || !*plan->command.v[0]))
        return rerr(c, "command", "must be a non-empty list whose first word is not empty");

    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    size_t n = argv.n + 2 + plan->command.n;
    strv_free(&argv);
    if (n > PLAN_MAX_ARGS)
        return rerr(c, "ops", "the plan needs %zu bwrap arguments; bwrap accepts at most %d", n,
                    PLAN_MAX_ARGS);
    return 0;
}

int
plan_from_json(const char *name, const char *data, size_t len, struct plan *out, char **err)
{
    struct rctx c = {name, NULL};
    json_error_t je;
    plan_init(out);
    /* Defaults reject NUL (\u0000), invalid UTF-8 and trailing data; duplicates are
     * last-wins unless refused. */
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        *err = xasprintf("%s:%d:%d: error: %s", name, je.line, je.column, je.text);
        return -1;
    }
    if (!depth_ok(root, 0)) {
        json_decref(root);
        *err =
            xasprintf("%s: (root): error: nesting deeper than %d levels", name, PLAN_MAX_DEPTH);
        return -1;
    }
    int r = read_plan(&c, root, out);
    json_decref(root);
    if (r < 0 || c.err) {
        plan_free(out);
        plan_init(out);
        *err = c.err ? c.err : xasprintf("%s: error: invalid plan", name);
        return -1;
    }
    return 0;
}

int
plan_read_file(const char *path, char **data, size_t *len, char **err)
{
    /* No symlinks (a plan is a policy; a link could be swapped under it), regular files
     * only (a FIFO would block: O_NONBLOCK), and a size cap. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        *err = xasprintf("cannot open '%s': %s", path,
                         errno == ELOOP ? "is a symbolic link" : strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        *err = xasprintf("cannot read '%s': %s", path, "not a regular file");
        close(fd);
        return -1;
    }
    struct buf b = {0};
    int r = read_fd_capped(fd, PLAN_MAX_BYTES, &b);
    int e = errno;
    close(fd);
    if (r == -2) {
        *err = xasprintf("cannot read '%s': larger than %d bytes", path, PLAN_MAX_BYTES);
        return -1;
    }
    if (r < 0) {
        *err = xasprintf("cannot read '%s': %s", path, strerror(e));
        return -1;
    }
    *data = b.data;
    *len = b.len;
    return 0;
}
