/* yamltree.c - see yamltree.h. */
#include "yamltree.h"

#include <string.h>
#include <yaml.h>

struct builder {
    const char *file;
    const char *data;
    size_t len;
    struct diag_sink *sink;
    struct ynode *stack[YTREE_MAX_DEPTH + 1];
    struct ynode *pending_key[YTREE_MAX_DEPTH + 1]; /* map at the same depth awaits a value */
    int depth;
    struct ynode *root;
    int documents;
    bool failed;
};

static void
error_at(struct builder *b, unsigned line, unsigned col, const char *msg, const char *subject)
{
    struct plan_loc loc = {(char *)b->file, line, col};
    if (subject)
        diag_error(b->sink, &loc, "%s '%s'", msg, subject);
    else
        diag_error(b->sink, &loc, "%s", msg);
    b->failed = true;
}

void
ynode_free(struct ynode *node)
{
    if (!node)
        return;
    for (size_t i = 0; i < node->n; i++) {
        if (node->keys)
            ynode_free(node->keys[i]);
        ynode_free(node->vals[i]);
    }
    free(node->keys);
    free(node->vals);
    free(node->value);
    free(node);
}

static struct ynode *
node_new(enum ynode_type type, const yaml_mark_t *mark)
{
    struct ynode *n = xcalloc(1, sizeof *n);
    n->type = type;
    n->line = (unsigned)mark->line + 1;
    n->col = (unsigned)mark->column + 1;
    return n;
}

static void
push_child(struct ynode *parent, struct ynode *key, struct ynode *val)
{
    size_t cap = parent->cap;
    parent->vals = xgrow(parent->vals, &cap, parent->n + 1, sizeof *parent->vals);
    if (parent->type == YNODE_MAP) {
        size_t kcap = parent->cap;
        parent->keys = xgrow(parent->keys, &kcap, parent->n + 1, sizeof *parent->keys);
        parent->keys[parent->n] = key;
    }
    parent->cap = cap;
    parent->vals[parent->n++] = val;
}

static bool
same_key(const struct ynode *a, const struct ynode *b)
{
    return a->len == b->len && memcmp(a->value, b->value, a->len) == 0;
}

/* Attaches a finished or newly opened node to its parent. Takes ownership of node. */
static void
attach(struct builder *b, struct ynode *node)
{
    if (b->depth == 0) {
        if (b->root)
            ynode_free(b->root);
        b->root = node;
        return;
    }
    struct ynode *parent = b->stack[b->depth - 1];
    if (parent->type == YNODE_SEQ) {
        push_child(parent, NULL, node);
        return;
    }
    struct ynode *key = b->pending_key[b->depth - 1];
    if (key) {
        b->pending_key[b->depth - 1] = NULL;
        push_child(parent, key, node);
        return;
    }
    if (node->type != YNODE_SCALAR) {
        error_at(b, node->line, node->col, "mapping keys must be plain strings", NULL);
        ynode_free(node);
        return;
    }
    for (size_t i = 0; i < parent->n; i++) {
        if (same_key(parent->keys[i], node)) {
            struct plan_loc first = {(char *)b->file, parent->keys[i]->line,
                                     parent->keys[i]->col};
            error_at(b, node->line, node->col, "duplicate key", node->value);
            diag_note(b->sink, &first, "'%s' first defined here", node->value);
            break;
        }
    }
    b->pending_key[b->depth - 1] = node;
}

static bool
refuse_node_features(struct builder *b, const yaml_mark_t *mark, const yaml_char_t *anchor,
                     const yaml_char_t *tag, bool implicit_tag)
{
    unsigned line = (unsigned)mark->line + 1, col = (unsigned)mark->column + 1;
    if (anchor) {
        error_at(b, line, col, "anchors and aliases are not supported", NULL);
        return true;
    }
    if (tag && !implicit_tag) {
        struct plan_loc loc = {(char *)b->file, line, col};
        diag_error(b->sink, &loc, "tags are not supported (found '%s')", (const char *)tag);
        b->failed = true;
        return true;
    }
    return false;
}

size_t
yaml_line_break(const char *str, size_t left)
{
    const unsigned char *s = (const unsigned char *)str;
    if (s[0] == '\n')
        return 1;
    if (s[0] == '\r')
        return left > 1 && s[1] == '\n' ? 2 : 1;
    if (left > 1 && s[0] == 0xC2 && s[1] == 0x85)
        return 2;
    if (left > 2 && s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9))
        return 3;
    return 0;
}

/* Position of a byte offset, counted the way libyaml counts marks: lines broken as
 * above, columns in characters (UTF-8 continuation bytes do not count). Reader errors
 * come with an offset only. */
static void
offset_to_pos(const char *data, size_t len, size_t offset, unsigned *line, unsigned *col)
{
    const unsigned char *d = (const unsigned char *)data;
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < offset && i < len;) {
        size_t br = yaml_line_break(data + i, len - i);
        if (br) {
            (*line)++;
            *col = 1;
            i += br;
            continue;
        }
        if ((d[i] & 0xC0) != 0x80)
            (*col)++;
        i++;
    }
}

static void
report_parser_error(struct builder *b, const yaml_parser_t *p)
{
    unsigned line, col;
    const char *problem = p->problem ? p->problem : "invalid YAML";
    if (p->error == YAML_READER_ERROR) {
        offset_to_pos(b->data, b->len, p->problem_offset, &line, &col);
    } else {
        line = (unsigned)p->problem_mark.line + 1;
        col = (unsigned)p->problem_mark.column + 1;
    }
    /* At the end of a file without a final newline libyaml adds a line of its own;
     * point at the real end instead. */
    unsigned end_line, end_col;
    offset_to_pos(b->data, b->len, b->len, &end_line, &end_col);
    if (line > end_line || (line == end_line && col > end_col)) {
        line = end_line;
        col = end_col;
    }
    struct plan_loc loc = {(char *)b->file, line, col};
    if (p->context)
        diag_error(b->sink, &loc, "%s (%s at %u:%u)", problem, p->context,
                   (unsigned)p->context_mark.line + 1, (unsigned)p->context_mark.column + 1);
    else
        diag_error(b->sink, &loc, "%s", problem);
    b->failed = true;
}

static void
handle_event(struct builder *b, yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++b->documents > 1) {
            error_at(b, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1,
                     "exactly one YAML document expected", NULL);
            return;
        }
        if (ev->data.document_start.version_directive ||
            ev->data.document_start.tag_directives.start !=
                ev->data.document_start.tag_directives.end)
            error_at(b, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1,
                     "YAML directives are not supported", NULL);
        return;
    case YAML_ALIAS_EVENT:
        error_at(b, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1,
                 "anchors and aliases are not supported", NULL);
        return;
    case YAML_SCALAR_EVENT: {
        if (refuse_node_features(
                b, &ev->start_mark, ev->data.scalar.anchor, ev->data.scalar.tag,
                ev->data.scalar.plain_implicit || ev->data.scalar.quoted_implicit))
            return;
        struct ynode *n = node_new(YNODE_SCALAR, &ev->start_mark);
        n->end_line = (unsigned)ev->end_mark.line + 1;
        n->end_col = (unsigned)ev->end_mark.column + 1;
        n->value = xstrndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
        n->len = ev->data.scalar.length;
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        attach(b, n);
        return;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool map = ev->type == YAML_MAPPING_START_EVENT;
        const yaml_char_t *anchor =
            map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
        const yaml_char_t *tag = map ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
        int implicit = map ? ev->data.mapping_start.implicit : ev->data.sequence_start.implicit;
        if (refuse_node_features(b, &ev->start_mark, anchor, tag, implicit))
            return;
        if (b->depth >= YTREE_MAX_DEPTH) {
            struct plan_loc loc = {(char *)b->file, (unsigned)ev->start_mark.line + 1,
                                   (unsigned)ev->start_mark.column + 1};
            diag_error(b->sink, &loc, "nesting deeper than %d levels", YTREE_MAX_DEPTH);
            b->failed = true;
            return;
        }
        struct ynode *n = node_new(map ? YNODE_MAP : YNODE_SEQ, &ev->start_mark);
        b->stack[b->depth] = n;
        b->pending_key[b->depth] = NULL;
        b->depth++;
        return;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
        struct ynode *n = b->stack[--b->depth];
        attach(b, n);
        return;
    }
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        return;
    }
}

int
ytree_parse(const char *file, const char *data, size_t len, struct diag_sink *sink,
            struct ynode **out)
{
    struct builder b = {.file = file, .data = data, .len = len, .sink = sink};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        abort();
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            report_parser_error(&b, &parser);
            break;
        }
        yaml_event_type_t type = ev.type;
        handle_event(&b, &ev);
        yaml_event_delete(&ev);
        if (b.failed || type == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    /* On an early stop, containers still open are owned by the stack. */
    while (b.depth > 0) {
        b.depth--;
        ynode_free(b.pending_key[b.depth]);
        ynode_free(b.stack[b.depth]);
    }
    if (!b.failed && (!b.root || ynode_is_null(b.root))) {
        struct plan_loc loc = {(char *)file, 1, 1};
        diag_error(sink, &loc, "empty profile");
        b.failed = true;
    }
    if (b.failed) {
        ynode_free(b.root);
        return -1;
    }
    *out = b.root;
    return 0;
}

static long
ymap_index(const struct ynode *map, const char *key)
{
    if (!map || map->type != YNODE_MAP)
        return -1;
    size_t klen = strlen(key);
    for (size_t i = 0; i < map->n; i++)
        if (map->keys[i]->len == klen && memcmp(map->keys[i]->value, key, klen) == 0)
            return (long)i;
    return -1;
}

struct ynode *
ymap_key(const struct ynode *map, const char *key)
{
    long i = ymap_index(map, key);
    return i < 0 ? NULL : map->keys[i];
}

struct ynode *
ymap_get(const struct ynode *map, const char *key)
{
    long i = ymap_index(map, key);
    return i < 0 ? NULL : map->vals[i];
}

bool
ynode_is_null(const struct ynode *node)
{
    if (node->type != YNODE_SCALAR || !node->plain)
        return false;
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (strcmp(node->value, nulls[i]) == 0)
            return true;
    return false;
}

const char *
ynode_kind(const struct ynode *node)
{
    switch (node->type) {
    case YNODE_SCALAR:
        return ynode_is_null(node) ? "null" : "a scalar";
    case YNODE_MAP:
        return "a mapping";
    case YNODE_SEQ:
        return "a sequence";
    }
    return "?";
}

/* (l1, c1) before (l2, c2). */
static bool
pos_before(unsigned l1, unsigned c1, unsigned l2, unsigned c2)
{
    return l1 < l2 || (l1 == l2 && c1 < c2);
}

bool
ynode_in_scalar(const struct ynode *node, unsigned line, unsigned col)
{
    if (!node)
        return false;
    if (node->type == YNODE_SCALAR)
        return !pos_before(line, col, node->line, node->col) &&
               pos_before(line, col, node->end_line, node->end_col);
    for (size_t i = 0; i < node->n; i++)
        if ((node->keys && ynode_in_scalar(node->keys[i], line, col)) ||
            ynode_in_scalar(node->vals[i], line, col))
            return true;
    return false;
}
