/* lint.h - policy rules over a compiled plan (nookc lint).
 *
 * The rules look at the plan as bubblewrap will apply it - after sorting, defaults,
 * implications and room-making - and, for settings no op carries (capabilities,
 * namespaces, environment), at the profile's locator tree for positions. Rule ids and
 * rationales come from the lint table of the threat catalogue; the rule table in lint.c
 * says what each rule checks, exactly.
 *
 * Suppressions are comments in the profile text:
 *     # nook-lint: allow NKL-FS-003[, NKL-...] -- reason
 * at the end of the finding's line, or on comment-only lines directly above it (or
 * above the mount entry it belongs to). One without a reason does not suppress and is
 * itself a finding (NKL-LINT-001); a malformed one or an unknown id is NKL-LINT-002.
 */
#ifndef NOOK_LINT_H
#define NOOK_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "../runtime/plan.h"

struct ynode;

/* Ordered: a finding fails the run when its severity is at least --fail-on's. */
enum lint_severity {
    LINT_INFO,
    LINT_WARNING,
    LINT_ERROR,
};

const char *lint_severity_name(enum lint_severity sev);
/* Parses "error", "warning" or "info". Returns 0 or -1. */
int lint_severity_parse(const char *s, enum lint_severity *out);

enum lint_preset {
    LINT_PRESET_AGENT = 1 << 0, /* network, pid namespace, persistence paths: errors */
    LINT_PRESET_CI = 1 << 1,    /* no timeout: a warning */
};

struct lint_rule {
    const char *id;              /* "NKL-FS-003" */
    enum lint_severity severity; /* without presets */
    const char *threat;  /* the catalogue's severity: critical, high, medium, low, error */
    const char *summary; /* one-line rationale */
    const char *help;    /* the usual fix */
};

extern const struct lint_rule lint_rules[];
extern const size_t lint_rule_count;

/* Index of the rule with this id, or -1. */
int lint_rule_find(const char *id);
/* Severity of rule r under the presets (enum lint_preset bits). */
enum lint_severity lint_rule_severity(size_t r, unsigned presets);

struct lint_finding {
    size_t rule;                 /* index into lint_rules */
    enum lint_severity severity; /* with the presets applied */
    unsigned line, col;          /* 1-based, in the profile */
    char *message;               /* owned */
    char *fix;                   /* owned: what to change */
    char *subject;               /* owned: what it is about (a path, a name); fingerprints */
    char *justification;         /* owned: the suppression's reason, or NULL */
};

/* The findings for one profile, sorted by line, column and rule. */
struct lint_report {
    char *file;                    /* owned: the profile as named on the command line */
    struct lint_finding *findings; /* owned */
    size_t n, cap;
};

/* What the rules take from the environment of the lint run. */
struct lint_env {
    const char *home;          /* $HOME (its credentials and dotfiles), or NULL */
    const char *ssh_auth_sock; /* $SSH_AUTH_SOCK (an agent socket to look for), or NULL */
    unsigned presets;          /* enum lint_preset bits */
};

/* Runs every rule over the compiled plan of profile `file` (tree: its locator tree; text,
 * len: its bytes, for the suppression comments) and fills *out (initialised here). */
void lint_run(const char *file, const char *text, size_t len, const struct plan *plan,
              const struct ynode *tree, const struct lint_env *env, struct lint_report *out);
void lint_report_free(struct lint_report *r);

/* A fingerprint of finding f that survives edits elsewhere in the profile: 16 hex digits
 * from the rule id and the subject (and a counter among equal ones). Owned. */
char *lint_fingerprint(const struct lint_report *r, size_t f);

#endif
