/* lower.h - profile -> plan.
 *
 * Copies what the plan needs out of the loaded profile, expands ${VAR}, ${VAR:-default}
 * and a leading ~/, applies the profile's implications (hostname -> uts, network ->
 * uts + ipc, default proc/dev targets) and checks every value that has a position of
 * its own. Each op carries its origin. Path canonicalisation, ordering and conflicts are
 * the passes' (passes.h).
 */
#ifndef NOOK_LOWER_H
#define NOOK_LOWER_H

#include "../runtime/plan.h"
#include "diag.h"
#include "profile.h"

/* Lowers doc into plan (initialised by the caller). Returns the number of errors
 * reported. */
unsigned lower_profile(const struct profile_doc *doc, struct plan *plan,
                       struct diag_sink *sink);

#endif
