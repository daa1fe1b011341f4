/* plan.h - the plan: the checked, ordered description of one sandbox.
 *
 * The plan is the contract between the compiler (which produces it from a profile) and
 * the runtime (which executes it). Filesystem operations are kept in the order bwrap
 * must apply them: bwrap is imperative, so order is meaning. The one lowering from a
 * plan to bwrap arguments is plan_bwrap_args(); every output (argv, sh, JSON -> exec)
 * goes through it.
 */
#ifndef NOOK_PLAN_H
#define NOOK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op-kinds.h"
#include "util.h"

#define PLAN_VERSION 1

/* Hard limits of bwrap and the kernel that every output must respect. */
#define PLAN_MAX_ARGS 9000      /* bwrap MAX_ARGS, counted over argv and --args data */
#define PLAN_MAX_ARG_LEN 131072 /* MAX_ARG_STRLEN: longest single execve argument */

enum plan_op_kind {
#define X(e, name, opt) PLAN_OP_##e,
    PLAN_OP_KINDS(X)
#undef X
};
#define PLAN_OP_KIND_COUNT (PLAN_OP_REMOUNT_RO + 1)

const char *plan_op_kind_name(enum plan_op_kind kind);
/* Returns the kind named `name`, or -1. */
int plan_op_kind_from_name(const char *name);

enum plan_create {
    PLAN_CREATE_NONE,
    PLAN_CREATE_DIR,
    PLAN_CREATE_FILE,
};

/* Where an element of the plan comes from, for diagnostics ("profile.yaml:12:5"). With
 * line 0 the file is a free text instead, such as a command-line option. */
struct plan_loc {
    char *file; /* owned; NULL when unknown */
    unsigned line, col;
};

struct plan_op {
    enum plan_op_kind kind;
    char *source;       /* owned: host path (binds, overlay rw dir), link text (symlink) */
    char *dest;         /* owned: absolute path inside the sandbox */
    char *workdir;      /* owned: overlay work directory */
    struct strv layers; /* overlay lower layers, bottom first */
    uint64_t size;      /* tmpfs size in bytes; 0 = bwrap's default */
    int perms;          /* tmpfs/dir permission bits; -1 = bwrap's default */
    bool optional;      /* binds: skip silently when the source is missing (-try) */
    enum plan_create create_source; /* binds: create a missing source before starting */
    struct plan_loc origin;         /* the op (its target value when it has one) */
    struct plan_loc src_origin;     /* its source value; compiler diagnostics only */
    size_t decl;                    /* declaration index: the stable tie-break of the sort */
};

enum plan_ns {
    PLAN_NS_PID = 1 << 0,
    PLAN_NS_UTS = 1 << 1,
    PLAN_NS_IPC = 1 << 2,
    PLAN_NS_CGROUP = 1 << 3,
    PLAN_NS_USER = 1 << 4,
    PLAN_NS_NET = 1 << 5,
};
#define PLAN_NS_COUNT 6
/* Profile/plan name of namespace bit i ("pid", ..., "network"). */
extern const char *const plan_ns_names[PLAN_NS_COUNT];

struct plan_version {
    unsigned major, minor, patch;
};

struct plan {
    char *name;                 /* owned: sandbox name, tags log lines */
    char *profile;              /* owned: the profile it was compiled from, or NULL */
    char *bwrap;                /* owned: absolute bwrap path, or NULL (found at run time) */
    struct plan_version target; /* bubblewrap version the plan was checked against */

    struct plan_op *ops; /* owned, n_ops entries, in execution order */
    size_t n_ops, cap_ops;

    unsigned namespaces; /* enum plan_ns bits */
    char *hostname;      /* owned or NULL */

    /* Capabilities: bwrap always gets --cap-drop ALL first, then --cap-add for each of
     * cap_add ("CAP_X" or "ALL"), then --cap-drop for each of cap_drop. */
    struct strv cap_add;
    struct strv cap_drop;

    /* Environment: --clearenv, then --unsetenv each, then --setenv each pair. */
    bool clearenv;
    struct strv unsetenv;
    struct strv setenv_names;
    struct strv setenv_values;

    char *chdir; /* owned or NULL */
    bool die_with_parent;
    bool new_session;
    uint64_t timeout_ms; /* 0 = none */

    struct strv command; /* may be empty: the command is given at run time */
};

void plan_init(struct plan *plan);
void plan_free(struct plan *plan);
/* Appends a zeroed op (perms = -1) and returns it; the pointer is valid until the next
 * append. */
struct plan_op *plan_add_op(struct plan *plan, enum plan_op_kind kind);
void plan_op_free(struct plan_op *op);
void plan_loc_set(struct plan_loc *loc, const char *file, unsigned line, unsigned col);
void plan_loc_copy(struct plan_loc *dst, const struct plan_loc *src);
/* "file:line:col" (owned), the text alone when line is 0, or NULL when unknown. */
char *plan_loc_str(const struct plan_loc *loc);

/* Parses "MAJOR.MINOR.PATCH" (PATCH optional). Returns 0 or -1. */
int plan_version_parse(const char *s, struct plan_version *out);
int plan_version_cmp(const struct plan_version *a, const struct plan_version *b);
/* The first bubblewrap release that has `option` (e.g. "--size"), or NULL if unknown. */
const struct plan_version *plan_bwrap_option_since(const char *option);

/* The single lowering of a plan to bwrap options (everything before "--"), one option
 * at a time: fn gets each option with its operands (words[0] the option, n <= 4), in
 * order, and the op it lowers, or NULL for the plan-wide options. Every output, the
 * option probe and the compiler's final check walk it. */
typedef void plan_option_fn(void *ctx, const struct plan_op *op, const char *const *words,
                            size_t n);
void plan_lower(const struct plan *plan, plan_option_fn *fn, void *ctx);

/* Appends the lowering's bwrap options to out. */
void plan_bwrap_args(const struct plan *plan, struct strv *out);

/* Appends to `options` each distinct bwrap option the plan's lowering uses ("--size",
 * "--bind-try", ...), for checking them against the installed bwrap. */
void plan_bwrap_options_used(const struct plan *plan, struct strv *options);

/* Appends "--" and then the command words to out. */
void plan_bwrap_command(const struct plan *plan, struct strv *out);

/* The host path behind sandbox path `p` (canonical) by the plan's mounts: the last op
 * on p or an ancestor decides (remount-ro and dir ops change nothing). Owned; NULL when
 * p lies on a tmpfs, proc, dev or bwrap's empty root. *known is false (and NULL
 * returned) when a symlink or overlay op is in the way and the answer is unclear. */
char *plan_host_path(const struct plan *plan, const char *p, bool *known);

/* Formats a millisecond duration as seconds for timeout(1) and humans: "10", "0.1". */
char *plan_format_seconds(uint64_t ms);

#endif
