/* profile.h - the profile front end: bytes -> checked YAML tree + libcyaml structs.
 *
 * profile_load() runs three steps over the same bytes: the locator (yamltree.h) builds
 * a positioned tree and refuses unsafe YAML; a schema walk checks that tree against the
 * libcyaml schema (unknown keys with a "did you mean", wrong types, YAML 1.1 booleans,
 * non-numeric numbers) so every error has an exact position; then libcyaml loads the
 * structs below. Keys whose shape libcyaml cannot express (env_vars: a map with
 * arbitrary keys; unset_vars: a string or a list) are read from the tree.
 */
#ifndef NOOK_PROFILE_H
#define NOOK_PROFILE_H

#include <stdbool.h>

#include "diag.h"
#include "yamltree.h"

#define PROFILE_MAX_BYTES (1024 * 1024)

struct profile_mount {
    int type; /* enum plan_op_kind; only the ten profile mount types */
    char *source, *target, *size, *mode, *workdir;
    char *create_as, *create_as_u; /* "create-as" / "create_as" */
    bool optional, device;
    bool create_source, create_source_u; /* "create-source" / "create_source" */
    char **overlay_src;                  /* "overlay-src" */
    unsigned overlay_src_count;
    char **overlay_src_u; /* "overlay_src" */
    unsigned overlay_src_u_count;
};

struct profile_caps {
    char **drop;
    unsigned drop_count;
    char **keep;
    unsigned keep_count;
};

struct profile_unshare {
    bool pid, uts, ipc, cgroup, user, network;
};

struct profile_yaml {
    char *name;
    struct profile_mount *mounts;
    unsigned mounts_count;
    struct profile_caps *capabilities; /* NULL when absent */
    struct profile_unshare *unshare;   /* NULL when absent */
    char *hostname;                    /* NULL when absent or null */
    char *chdir;                       /* NULL when absent or null */
    bool *die_with_parent;             /* NULL when absent */
    bool *new_session;                 /* NULL when absent */
    double *timeout;                   /* NULL when absent or null */
};

struct profile_doc {
    char *file;             /* owned: the name used in diagnostics */
    struct ynode *tree;     /* owned: positions and the keys libcyaml cannot hold */
    struct profile_yaml *y; /* owned (libcyaml) */
};

/* Loads and schema-checks a profile. Returns 0 and fills *out, or reports to the sink
 * and returns -1 (nothing to free then). */
int profile_load(const char *file, const char *data, size_t len, struct diag_sink *sink,
                 struct profile_doc *out);
void profile_doc_free(struct profile_doc *doc);

/* Reads a profile file: regular files only (a FIFO, directory or device is refused
 * without blocking), at most PROFILE_MAX_BYTES. Returns 0 and an owned buffer, or
 * reports "nookc: error: ..." and returns -1. */
int profile_read_file(const char *path, struct diag_sink *sink, char **data, size_t *len);

/* The strict loading profile_load() does, for any libcyaml top-level mapping schema
 * (logging.yaml uses it too): locator tree, schema walk with positions, then libcyaml.
 * On success *tree and *out (free with ynode_free and yaml_free_checked) are set. */
struct cyaml_schema_value;
int yaml_load_checked(const char *file, const char *data, size_t len,
                      const struct cyaml_schema_value *schema, struct diag_sink *sink,
                      struct ynode **tree, void **out);
void yaml_free_checked(const struct cyaml_schema_value *schema, void *data);

/* Edit distance used for "did you mean" hints. */
size_t profile_edit_distance(const char *a, const char *b);

#endif
