/* explain.h - what a sandbox can see and do, for a person (nookc explain).
 *
 * Works on the compiled plan (what bubblewrap will really do) and, for what is written
 * but not in the plan (environment values as written, so secrets expanded from the
 * caller's environment are not printed), on the profile's locator tree.
 */
#ifndef NOOK_EXPLAIN_H
#define NOOK_EXPLAIN_H

#include "../runtime/plan.h"

struct ynode;

/* A table of the paths in mount order (access, path, source, origin), then namespaces,
 * capabilities, environment, hostname, working directory, timeout, network and the
 * process settings. */
void explain_text(const struct plan *plan, const struct ynode *tree, struct buf *out);

/* The same as JSON. Returns -1 when jansson cannot encode it. */
int explain_json(const struct plan *plan, const struct ynode *tree, struct buf *out);

/* The access an op gives at its target, as both outputs name it: rw, ro, device,
 * hidden (a tmpfs over host files), tmpfs, proc, dev, dir, symlink, overlay,
 * ro-overlay, tmp-overlay; "ro" for a remount. */
const char *explain_access(const struct plan *plan, size_t i);

/* The value of env_vars.NAME as written in the profile, or NULL. Borrowed. */
const char *explain_env_as_written(const struct ynode *tree, const char *name);

#endif
