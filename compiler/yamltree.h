/* yamltree.h - the locator: a strict libyaml pass that records where everything is.
 *
 * libcyaml loads the profile into structs but keeps no positions, reports wrong ones
 * for unknown and duplicate keys and none for syntax errors. This pass walks libyaml's
 * events over the same bytes and builds a small tree of nodes, each with its 1-based
 * line and column, so every later diagnostic can point at the exact key or value. It
 * is also where YAML features a security policy must not use are refused: several
 * documents, anchors and aliases, tags, directives, duplicate keys, non-scalar keys
 * and runaway nesting.
 */
#ifndef NOOK_YAMLTREE_H
#define NOOK_YAMLTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define YTREE_MAX_DEPTH 64

enum ynode_type {
    YNODE_SCALAR,
    YNODE_MAP,
    YNODE_SEQ,
};

struct ynode {
    enum ynode_type type;
    unsigned line, col;         /* 1-based start of the node (the quote of a quoted scalar) */
    unsigned end_line, end_col; /* scalars: 1-based position just past the node's text
                                   (after the closing quote, the block's last line) */
    /* scalar */
    char *value; /* owned, NUL-terminated; len may be shorter than the buffer if the
                    scalar holds a NUL */
    size_t len;
    bool plain; /* plain (unquoted, not block) scalar */
    /* map: keys[i] -> vals[i]; seq: vals[i] */
    struct ynode **keys; /* owned */
    struct ynode **vals; /* owned */
    size_t n, cap;
};

/* Parses data (len bytes) of `file`. On success stores the root (a mapping, sequence or
 * scalar) in *out and returns 0; otherwise reports every problem found to the sink and
 * returns -1. An empty document is an error ("empty profile"). */
int ytree_parse(const char *file, const char *data, size_t len, struct diag_sink *sink,
                struct ynode **out);
void ynode_free(struct ynode *node);

/* Length of the line break at s (libyaml's set: LF, CR, CR LF, NEL, LS, PS), or 0. */
size_t yaml_line_break(const char *s, size_t left);

/* True when (line, col) - libyaml's counting: lines broken as above, columns in
 * characters - lies inside a scalar of the tree, quotes and block content included: a
 * '#' there is text, not a comment. */
bool ynode_in_scalar(const struct ynode *node, unsigned line, unsigned col);

/* Value node of `key` in a mapping, or NULL. */
struct ynode *ymap_get(const struct ynode *map, const char *key);
/* Key node of `key` in a mapping, or NULL. */
struct ynode *ymap_key(const struct ynode *map, const char *key);
/* True for the plain scalars YAML reads as null: empty, "null", "Null", "NULL", "~". */
bool ynode_is_null(const struct ynode *node);
/* "a mapping", "a sequence", "a scalar" or "null" - for messages. */
const char *ynode_kind(const struct ynode *node);

/* A location that borrows `file`: for diagnostics only, never freed. */
static inline struct plan_loc
ynode_loc(const char *file, const struct ynode *node)
{
    struct plan_loc loc = {(char *)file, node ? node->line : 1, node ? node->col : 1};
    return loc;
}

#endif
