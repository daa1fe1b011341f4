/* view.h - what a compiled plan shows inside the sandbox.
 *
 * lint, explain and diff ask two questions of the plan as bwrap will apply it (after
 * sorting, defaults, implications and room-making): what decides a sandbox path - the
 * last op on it or on an ancestor - and where a host path appears in the sandbox. Host
 * paths may be patterns, each component an fnmatch(3) pattern (a component "*" after
 * "/home" stands for every user), so a rule can speak of every user's home without
 * listing the users of the machine it runs on.
 */
#ifndef NOOK_VIEW_H
#define NOOK_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "../runtime/plan.h"

#define VIEW_NONE ((size_t)-1)

/* The op (index into plan->ops) that decides what is at sandbox path p (canonical),
 * considering only ops[0 .. before): the last one whose target is p or an ancestor of
 * it, dir and remount-ro ops aside (they show nothing of their own). VIEW_NONE is
 * bwrap's own root, an empty tmpfs. With before = plan->n_ops it is what the sandbox
 * shows; with before = i, what op i mounts over. */
size_t view_decider(const struct plan *plan, const char *p, size_t before);

/* True for ops that show host files: binds and overlays. */
bool view_host_backed(const struct plan_op *op);

/* True when writing under the op's target changes host files: bind, dev-bind, and
 * overlay (its upper directory). */
bool view_writes_host(const struct plan_op *op);

/* True when op i is a tmpfs the room-making pass put in place of a read-only bind (a
 * remount-ro of the same target follows it), not a tmpfs of the profile. */
bool view_room_made(const struct plan *plan, size_t i);

/* What is at one sandbox path. */
enum view_access {
    VIEW_EMPTY,   /* bwrap's root: directories made for mount points, nothing else */
    VIEW_TMPFS,   /* a fresh tmpfs */
    VIEW_PROC,    /* a proc filesystem */
    VIEW_DEV,     /* bwrap's minimal /dev */
    VIEW_RO,      /* host files, read-only */
    VIEW_RW,      /* host files, read-write */
    VIEW_DEVICE,  /* host files with device nodes usable (dev-bind) */
    VIEW_SYMLINK, /* a symlink made by the room-making pass */
    VIEW_OVERLAY, /* an overlay; writes go to its upper directory on the host */
    VIEW_RO_OVERLAY,
    VIEW_TMP_OVERLAY,
};

struct view_state {
    enum view_access access;
    size_t op;     /* the deciding op, or VIEW_NONE */
    char *host;    /* owned: the host path behind the sandbox path (binds; the upper
                      directory of an overlay), the link text (symlinks), else NULL */
    bool optional; /* the deciding op is a -try bind */
};

/* The state of sandbox path p (canonical) once every op has run. */
void view_state_at(const struct plan *plan, const char *p, struct view_state *out);
void view_state_free(struct view_state *st);
/* "rw", "ro", "tmpfs", ... for messages and JSON. */
const char *view_access_name(enum view_access access);

/* A plan with its bind sources resolved on the host, for the host-path questions. */
struct view {
    const struct plan *plan;   /* borrowed */
    char **source;             /* owned: per op, the bind source as realpath(3) gives it when
                                  it exists on the host, else as written; NULL when the op
                                  has no bind source */
    struct strv *source_comps; /* owned: per op, the components of source[i] */
    size_t *by_dest;           /* owned: the deciding ops (dir and remount-ro aside),
                                  sorted by target, then index: a decider is found by
                                  binary search, so a lint of thousands of mounts stays
                                  about quadratic, not cubic */
    size_t n_by_dest;
};

void view_init(struct view *v, const struct plan *plan);
void view_free(struct view *v);

struct view_hit {
    size_t op;     /* the op that shows it (the decider at `path`) */
    char *path;    /* owned: where inside the sandbox; a pattern component stays one */
    char *host;    /* owned: the host path, the pattern with what the op's source fixes */
    bool writable; /* writing there changes the host path */
    bool inside;   /* the op's source lies inside a match: only that part is shown */
};

/* Every place inside the sandbox where a host path matching `pattern` (canonical, with
 * fnmatch components) is visible: for each op that shows host files from a source that
 * is an ancestor of, equal to, or inside a match, the sandbox path under its target,
 * kept only when that op decides it (a later op covering every match hides it; a mount
 * over one match only does not). When a component below the bind source is a symlink on
 * the host, that name is an alias: the search continues at the path the link leads to
 * (as bwrap and the sandbox follow it), up to 8 links. Returns the number of hits; *hits
 * is owned (view_hits_free). */
size_t view_find_host(const struct view *v, const char *pattern, struct view_hit **hits);
/* The same for one literal host path (no pattern characters). */
size_t view_find_path(const struct view *v, const char *path, struct view_hit **hits);
void view_hits_free(struct view_hit *hits, size_t n);

#endif
