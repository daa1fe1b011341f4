/* diff.h - the effective difference between two compiled plans (nookc diff).
 *
 * Not a text diff: each path that is a mount target in either plan is looked at in both
 * (what it shows once every op has run, view.h), and so are the namespaces, the
 * capabilities, the environment, the network, the process settings and the timeout.
 * Each change is weaker (NEW grants something OLD did not), stronger (it takes
 * something away) or changed (neither: a hostname, a working directory, a value).
 */
#ifndef NOOK_DIFF_H
#define NOOK_DIFF_H

#include "../runtime/plan.h"

struct ynode;

enum diff_kind {
    DIFF_WEAKER,
    DIFF_STRONGER,
    DIFF_CHANGED,
};

struct diff_change {
    enum diff_kind kind;
    const char *what; /* static: "path", "namespace", "capability", "capabilities",
                         "environment", "variable", "hostname", "chdir", "timeout",
                         "new_session", "die_with_parent" */
    char *subject;    /* owned: the path, namespace, capability or variable, or NULL */
    char *old_state;  /* owned: in words */
    char *new_state;  /* owned */
    char *origin;     /* owned: "file:line:col" of the op behind the new state (else the
                         old one), for paths; else NULL */
};

struct diff {
    struct diff_change *v; /* owned, in order: paths (parents first), then the rest */
    size_t n, cap;
    size_t count[3]; /* per enum diff_kind */
};

/* Compares two compiled plans; the trees give env_vars values as written. */
void diff_plans(const struct plan *old_plan, const struct ynode *old_tree,
                const struct plan *new_plan, const struct ynode *new_tree, struct diff *out);
void diff_free(struct diff *d);

const char *diff_kind_name(enum diff_kind kind);

/* "weaker    path '/p': ro '/p' -> rw '/p' [new.yaml:8:13]" lines and a count line. */
void diff_text(const struct diff *d, struct buf *out);
/* The same as JSON. Returns -1 when jansson cannot encode it. */
int diff_json(const struct diff *d, const char *old_file, const char *new_file,
              struct buf *out);

#endif
