/* profile.c - see profile.h. */
#include "profile.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- schema ---------------------------------------------------------------------- */

static const cyaml_strval_t mount_types[] = {
    {"bind", PLAN_OP_BIND},
    {"ro-bind", PLAN_OP_RO_BIND},
    {"dev-bind", PLAN_OP_DEV_BIND},
    {"tmpfs", PLAN_OP_TMPFS},
    {"proc", PLAN_OP_PROC},
    {"dev", PLAN_OP_DEV},
    {"dir", PLAN_OP_DIR},
    {"overlay", PLAN_OP_OVERLAY},
    {"ro-overlay", PLAN_OP_RO_OVERLAY},
    {"tmp-overlay", PLAN_OP_TMP_OVERLAY},
};

static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define OPT CYAML_FLAG_OPTIONAL
#define OPT_NULLABLE (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR)
#define OPT_SEQ (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER) /* sequences are allocated */

static const cyaml_schema_field_t mount_fields[] = {
    CYAML_FIELD_ENUM("type", CYAML_FLAG_STRICT, struct profile_mount, type, mount_types,
                     CYAML_ARRAY_LEN(mount_types)),
    CYAML_FIELD_STRING_PTR("source", OPT, struct profile_mount, source, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("target", OPT, struct profile_mount, target, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("size", OPT, struct profile_mount, size, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("mode", OPT, struct profile_mount, mode, 0, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("optional", OPT, struct profile_mount, optional),
    CYAML_FIELD_BOOL("device", OPT, struct profile_mount, device),
    CYAML_FIELD_BOOL("create-source", OPT, struct profile_mount, create_source),
    CYAML_FIELD_BOOL("create_source", OPT, struct profile_mount, create_source_u),
    CYAML_FIELD_STRING_PTR("create-as", OPT, struct profile_mount, create_as, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("create_as", OPT, struct profile_mount, create_as_u, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("overlay-src", OPT_SEQ, struct profile_mount, overlay_src,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("overlay_src", OPT_SEQ, struct profile_mount, overlay_src_u,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("workdir", OPT, struct profile_mount, workdir, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t mount_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct profile_mount, mount_fields),
};

static const cyaml_schema_field_t caps_fields[] = {
    CYAML_FIELD_SEQUENCE("drop", OPT_SEQ, struct profile_caps, drop, &string_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("keep", OPT_SEQ, struct profile_caps, keep, &string_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END,
};

static const cyaml_schema_field_t unshare_fields[] = {
    CYAML_FIELD_BOOL("pid", OPT, struct profile_unshare, pid),
    CYAML_FIELD_BOOL("uts", OPT, struct profile_unshare, uts),
    CYAML_FIELD_BOOL("ipc", OPT, struct profile_unshare, ipc),
    CYAML_FIELD_BOOL("cgroup", OPT, struct profile_unshare, cgroup),
    CYAML_FIELD_BOOL("user", OPT, struct profile_unshare, user),
    CYAML_FIELD_BOOL("network", OPT, struct profile_unshare, network),
    CYAML_FIELD_END,
};

static const cyaml_schema_field_t top_fields[] = {
    CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct profile_yaml, name, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("mounts", OPT_SEQ, struct profile_yaml, mounts, &mount_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("capabilities", OPT, struct profile_yaml, capabilities,
                            caps_fields),
    CYAML_FIELD_MAPPING_PTR("unshare", OPT, struct profile_yaml, unshare, unshare_fields),
    CYAML_FIELD_STRING_PTR("hostname", OPT_NULLABLE, struct profile_yaml, hostname, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("chdir", OPT_NULLABLE, struct profile_yaml, chdir, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_BOOL_PTR("die_with_parent", OPT, struct profile_yaml, die_with_parent),
    CYAML_FIELD_BOOL_PTR("new_session", OPT, struct profile_yaml, new_session),
    CYAML_FIELD_FLOAT_PTR("timeout", OPT_NULLABLE, struct profile_yaml, timeout),
    /* libcyaml 1.3 has no map with free-form keys and no "string or list" type: these
     * two are checked and read from the locator tree instead (see lower.c). */
    CYAML_FIELD_IGNORE("env_vars", OPT),
    CYAML_FIELD_IGNORE("unset_vars", OPT),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct profile_yaml, top_fields),
};

/* ---- schema walk over the located tree ------------------------------------------- */

struct vctx {
    const char *file;
    struct diag_sink *sink;
};

static void verr(struct vctx *c, const struct ynode *node, const char *fmt, ...)
    NOOK_PRINTF(3, 4);

static void
verr(struct vctx *c, const struct ynode *node, const char *fmt, ...)
{
    struct plan_loc loc = ynode_loc(c->file, node);
    va_list ap;
    va_start(ap, fmt);
    diag_verror(c->sink, &loc, fmt, ap);
    va_end(ap);
}

size_t
profile_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return SIZE_MAX;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static const char *
suggest(const cyaml_schema_field_t *fields, const char *key)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    size_t limit = strlen(key) <= 4 ? 1 : 2;
    for (const cyaml_schema_field_t *f = fields; f->key; f++) {
        size_t d = profile_edit_distance(key, f->key);
        if (d < best_d) {
            best_d = d;
            best = f->key;
        }
    }
    return best_d <= limit ? best : NULL;
}

static bool
is_yaml11_bool(const char *s)
{
    static const char *const words[] = {"y", "yes", "n", "no", "on", "off"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(s, words[i]) == 0)
            return true;
    return strcasecmp(s, "true") == 0 || strcasecmp(s, "false") == 0;
}

/* Decimal number of seconds: digits, optionally a fraction. No sign, exponent, hex,
 * infinity or NaN - those are how YAML 1.1 and strtod surprise people. */
static bool
is_plain_number(const char *s)
{
    const char *p = s;
    if (*p < '0' || *p > '9')
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0';
}

static void check_value(struct vctx *c, const cyaml_schema_value_t *sv, const char *key,
                        const struct ynode *node);

static void
check_env_vars(struct vctx *c, const struct ynode *node)
{
    if (ynode_is_null(node))
        return;
    if (node->type != YNODE_MAP) {
        verr(c, node, "expected a mapping of NAME: value for 'env_vars', got %s",
             ynode_kind(node));
        return;
    }
    for (size_t i = 0; i < node->n; i++) {
        const struct ynode *v = node->vals[i];
        if (v->type != YNODE_SCALAR)
            verr(c, v, "expected a string value for environment variable '%s', got %s",
                 node->keys[i]->value, ynode_kind(v));
        else if (ynode_is_null(v))
            verr(c, v,
                 "missing value for environment variable '%s' (write \"\" for an empty "
                 "value)",
                 node->keys[i]->value);
    }
}

static void
check_unset_vars(struct vctx *c, const struct ynode *node)
{
    if (node->type == YNODE_SCALAR)
        return;
    if (node->type == YNODE_MAP) {
        verr(c, node, "expected a string or a list of names for 'unset_vars', got a mapping");
        return;
    }
    for (size_t i = 0; i < node->n; i++)
        if (node->vals[i]->type != YNODE_SCALAR || ynode_is_null(node->vals[i]))
            verr(c, node->vals[i], "expected a variable name in 'unset_vars', got %s",
                 ynode_kind(node->vals[i]));
}

static void
check_mapping(struct vctx *c, const cyaml_schema_field_t *fields, const char *what,
              const struct ynode *node)
{
    if (node->type != YNODE_MAP) {
        verr(c, node, "expected a mapping for %s, got %s", what, ynode_kind(node));
        return;
    }
    for (size_t i = 0; i < node->n; i++) {
        const struct ynode *k = node->keys[i];
        const cyaml_schema_field_t *f = fields;
        while (f->key && strcmp(f->key, k->value) != 0)
            f++;
        if (!f->key) {
            const char *s = suggest(fields, k->value);
            if (s)
                verr(c, k, "unknown key '%s'; did you mean '%s'?", k->value, s);
            else
                verr(c, k, "unknown key '%s'", k->value);
            continue;
        }
        if (f->value.type == CYAML_IGNORE) {
            if (strcmp(f->key, "env_vars") == 0)
                check_env_vars(c, node->vals[i]);
            else
                check_unset_vars(c, node->vals[i]);
            continue;
        }
        check_value(c, &f->value, f->key, node->vals[i]);
    }
    for (const cyaml_schema_field_t *f = fields; f->key; f++)
        if (!(f->value.flags & CYAML_FLAG_OPTIONAL) && !ymap_key(node, f->key))
            verr(c, node, "missing required key '%s'", f->key);
}

static void
check_value(struct vctx *c, const cyaml_schema_value_t *sv, const char *key,
            const struct ynode *node)
{
    bool nullable = (sv->flags & CYAML_FLAG_POINTER_NULL) == CYAML_FLAG_POINTER_NULL;
    if (nullable && ynode_is_null(node))
        return;
    if (sv->type == CYAML_MAPPING) {
        char *what = xasprintf("'%s'", key);
        check_mapping(c, sv->mapping.fields, what, node);
        free(what);
        return;
    }
    if (sv->type == CYAML_SEQUENCE || sv->type == CYAML_SEQUENCE_FIXED) {
        if (node->type != YNODE_SEQ) {
            verr(c, node, "expected a list for '%s', got %s", key, ynode_kind(node));
            return;
        }
        for (size_t i = 0; i < node->n; i++)
            check_value(c, sv->sequence.entry, key, node->vals[i]);
        return;
    }
    if (node->type != YNODE_SCALAR) {
        const char *want = sv->type == CYAML_BOOL    ? "true or false"
                           : sv->type == CYAML_FLOAT ? "a number"
                                                     : "a string";
        verr(c, node, "expected %s for '%s', got %s", want, key, ynode_kind(node));
        return;
    }
    if (ynode_is_null(node)) {
        verr(c, node, "missing value for '%s'", key);
        return;
    }
    if (strlen(node->value) != node->len) {
        verr(c, node, "'%s' contains a NUL character", key);
        return;
    }
    switch (sv->type) {
    case CYAML_BOOL:
        if (node->plain &&
            (strcmp(node->value, "true") == 0 || strcmp(node->value, "false") == 0))
            return;
        if (!node->plain)
            verr(c, node, "expected true or false for '%s', got a quoted string", key);
        else if (is_yaml11_bool(node->value))
            verr(c, node,
                 "expected true or false for '%s', got '%s' (YAML 1.1 booleans are not "
                 "accepted)",
                 key, node->value);
        else
            verr(c, node, "expected true or false for '%s', got '%s'", key, node->value);
        return;
    case CYAML_FLOAT:
    case CYAML_INT:
    case CYAML_UINT:
        if (!node->plain)
            verr(c, node, "expected a number for '%s', got a quoted string", key);
        else if (!is_plain_number(node->value) ||
                 (sv->type != CYAML_FLOAT && strchr(node->value, '.')))
            verr(c, node, "expected a%s number for '%s', got '%s'",
                 sv->type == CYAML_FLOAT ? "" : " whole", key, node->value);
        else if (sv->type != CYAML_FLOAT && strlen(node->value) > 18)
            verr(c, node, "'%s' is too large for '%s'", node->value, key);
        return;
    case CYAML_ENUM:
        for (uint32_t i = 0; i < sv->enumeration.count; i++)
            if (strcmp(sv->enumeration.strings[i].str, node->value) == 0)
                return;
        {
            struct buf b = {0};
            for (uint32_t i = 0; i < sv->enumeration.count; i++)
                buf_printf(&b, "%s%s", i ? ", " : "", sv->enumeration.strings[i].str);
            if (strcmp(key, "type") == 0)
                verr(c, node, "unknown mount type '%s' (expected one of: %s)", node->value,
                     b.data);
            else
                verr(c, node, "invalid value '%s' for '%s' (expected one of: %s)", node->value,
                     key, b.data);
            buf_free(&b);
        }
        return;
    case CYAML_STRING:
        return;
    case CYAML_FLAGS:
    case CYAML_MAPPING:
    case CYAML_BITFIELD:
    case CYAML_SEQUENCE:
    case CYAML_SEQUENCE_FIXED:
    case CYAML_IGNORE:
    case CYAML__TYPE_COUNT:
        return;
    }
}

/* ---- libcyaml -------------------------------------------------------------------- */

static void
collect_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    (void)level;
    struct buf *b = ctx;
    char *line = xvasprintf(fmt, args);
    buf_adds(b, line);
    free(line);
}

static int
load_structs(struct vctx *c, const char *data, size_t len, const cyaml_schema_value_t *schema,
             void **out)
{
    struct buf log = {0};
    cyaml_config_t cfg = {
        .log_fn = collect_log,
        .log_ctx = &log,
        .mem_fn = cyaml_mem,
        .log_level = CYAML_LOG_ERROR,
        .flags = CYAML_CFG_NO_ALIAS,
    };
    void *y = NULL;
    cyaml_err_t err = cyaml_load_data((const uint8_t *)data, len, &cfg, schema, &y, NULL);
    if (err == CYAML_OK) {
        buf_free(&log);
        *out = y;
        return 0;
    }
    /* The schema walk should have caught everything libcyaml refuses; if it did not,
     * report libcyaml's own words at the innermost position it names. */
    unsigned line = 1, col = 1;
    const char *pos = log.data ? strstr(log.data, "(line ") : NULL;
    if (pos)
        sscanf(pos, "(line %u, column %u)", &line, &col);
    struct plan_loc loc = {(char *)c->file, line, col};
    char *first = xstrdup(log.data ? log.data : cyaml_strerror(err));
    char *nl = strchr(first, '\n');
    if (nl)
        *nl = '\0';
    diag_error(c->sink, &loc, "%s", first);
    free(first);
    buf_free(&log);
    return -1;
}

void
yaml_free_checked(const cyaml_schema_value_t *schema, void *data)
{
    cyaml_config_t cfg = {.mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR};
    if (data)
        cyaml_free(&cfg, schema, data, 0);
}

int
yaml_load_checked(const char *file, const char *data, size_t len,
                  const cyaml_schema_value_t *schema, struct diag_sink *sink,
                  struct ynode **tree, void **out)
{
    struct ynode *t = NULL;
    if (ytree_parse(file, data, len, sink, &t) < 0)
        return -1;
    struct vctx c = {file, sink};
    unsigned before = sink->errors;
    check_mapping(&c, schema->mapping.fields, "the top level", t);
    void *y = NULL;
    if (sink->errors != before || load_structs(&c, data, len, schema, &y) < 0) {
        ynode_free(t);
        return -1;
    }
    *tree = t;
    *out = y;
    return 0;
}

int
profile_load(const char *file, const char *data, size_t len, struct diag_sink *sink,
             struct profile_doc *out)
{
    struct ynode *tree = NULL;
    void *y = NULL;
    if (yaml_load_checked(file, data, len, &top_schema, sink, &tree, &y) < 0)
        return -1;
    out->file = xstrdup(file);
    out->tree = tree;
    out->y = y;
    return 0;
}

void
profile_doc_free(struct profile_doc *doc)
{
    yaml_free_checked(&top_schema, doc->y);
    ynode_free(doc->tree);
    free(doc->file);
    memset(doc, 0, sizeof *doc);
}

int
profile_read_file(const char *path, struct diag_sink *sink, char **data, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is refused
     * below as not a regular file. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return diag_error(sink, NULL, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return diag_error(sink, NULL, "cannot read '%s': %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return diag_error(sink, NULL, "cannot read '%s': %s", path,
                          S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    }
    struct buf b = {0};
    int r = read_fd_capped(fd, PROFILE_MAX_BYTES, &b);
    int e = errno;
    close(fd);
    if (r == -2)
        return diag_error(sink, NULL, "cannot read '%s': larger than %d bytes", path,
                          PROFILE_MAX_BYTES);
    if (r < 0)
        return diag_error(sink, NULL, "cannot read '%s': %s", path, strerror(e));
    *data = b.data;
    *len = b.len;
    return 0;
}
