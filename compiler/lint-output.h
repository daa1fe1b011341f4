/* lint-output.h - nookc lint's reports: text, JSON and SARIF 2.1.0, and the rule list.
 *
 * Text, one finding per two lines (suppressed findings are left out):
 *     FILE:LINE:COL: SEVERITY: MESSAGE [RULE-ID]
 *     FILE:LINE:COL: note: fix: HINT
 * JSON and SARIF carry every finding, suppressed ones marked (SARIF: `suppressions`
 * with kind "inSource" and the reason as justification).
 */
#ifndef NOOK_LINT_OUTPUT_H
#define NOOK_LINT_OUTPUT_H

#include <stdbool.h>

#include "lint.h"

/* What a lint run saw, for the JSON and SARIF headers. */
struct lint_run_info {
    enum lint_severity fail_on;
    unsigned presets;
    const bool *compiled; /* borrowed: per report, false when the profile did not compile
                             (its report is empty then) */
};

void lint_output_text(const struct lint_report *reports, size_t n, struct buf *out);
/* Both return -1 when a string cannot be encoded (never for valid UTF-8). */
int lint_output_json(const struct lint_report *reports, size_t n,
                     const struct lint_run_info *info, struct buf *out);
int lint_output_sarif(const struct lint_report *reports, size_t n,
                      const struct lint_run_info *info, struct buf *out);

/* The rule table under the presets: "ID  SEVERITY  RATIONALE" lines, or a JSON array. */
void lint_output_rules_text(unsigned presets, struct buf *out);
int lint_output_rules_json(unsigned presets, struct buf *out);

#endif
