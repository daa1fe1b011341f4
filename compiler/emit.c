/* emit.c - see emit.h. */
#include "emit.h"

#include <string.h>

#include "../runtime/plan-json.h"

void
emit_argv(const struct plan *plan, struct buf *out)
{
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    plan_bwrap_command(plan, &argv);
    for (size_t i = 0; i < argv.n; i++)
        buf_add(out, argv.v[i], strlen(argv.v[i]) + 1);
    strv_free(&argv);
}

/* Comment text: the data is not quoted there, so anything but printable ASCII is
 * replaced; a newline in a profile name must not become a script line. */
static void
add_comment_text(struct buf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        buf_addc(out, (*p >= 0x20 && *p < 0x7f) ? (char)*p : '?');
}

/* timeout(1) and its options, as words. */
static void
add_timeout(struct buf *out, const struct plan *plan, const char *timeout_prog, bool inside)
{
    char *secs = plan_format_seconds(plan->timeout_ms);
    buf_add_shell_word(out, timeout_prog);
    /* Inside a new session there is no terminal to keep, and without --foreground
     * timeout(1) signals the command's whole process group. */
    if (!inside || !plan->new_session)
        buf_adds(out, " '--foreground'");
    buf_adds(out, " '--kill-after=5' ");
    buf_add_shell_word(out, secs);
    free(secs);
}

void
emit_sh(const struct plan *plan, const char *bwrap, const char *timeout_prog,
        bool timeout_inside, struct buf *out)
{
    buf_adds(out, "#!/bin/sh\n# agent-nook launch script for sandbox '");
    add_comment_text(out, plan->name ? plan->name : "");
    buf_adds(out, "'");
    if (plan->profile) {
        buf_adds(out, ", compiled by nookc " NOOK_VERSION " from '");
        add_comment_text(out, plan->profile);
        buf_adds(out, "'");
    }
    buf_adds(out, ".\n# Regenerate it rather than editing: every word below is quoted data.\n");
    if (plan->command.n)
        buf_adds(out, "# Usage: sh SCRIPT [EXTRA ARGS...]\n");
    else
        buf_adds(out, "# Usage: sh SCRIPT COMMAND [ARGS...]\n");
    buf_adds(out, "set -eu\n");
    if (!plan->command.n)
        buf_adds(out, "if [ \"$#\" -eq 0 ]; then\n"
                      "    printf '%s\\n' 'usage: sh SCRIPT COMMAND [ARGS...]' >&2\n"
                      "    exit 2\n"
                      "fi\n");
    buf_adds(out, "exec ");
    bool timeout = plan->timeout_ms && timeout_prog;
    if (timeout && !timeout_inside) {
        add_timeout(out, plan, timeout_prog, false);
        buf_addc(out, ' ');
    }
    buf_add_shell_word(out, bwrap);
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    strv_push(&argv, "--");
    for (size_t i = 0; i < argv.n; i++) {
        /* One option per line for review; the break is cosmetic only. */
        bool option = strncmp(argv.v[i], "--", 2) == 0 &&
                      (plan_bwrap_option_since(argv.v[i]) || strcmp(argv.v[i], "--") == 0);
        buf_adds(out, option ? " \\\n    " : " ");
        buf_add_shell_word(out, argv.v[i]);
    }
    if (timeout && timeout_inside) {
        buf_addc(out, ' ');
        add_timeout(out, plan, timeout_prog, true);
    }
    for (size_t i = 0; i < plan->command.n; i++) {
        buf_addc(out, ' ');
        buf_add_shell_word(out, plan->command.v[i]);
    }
    buf_adds(out, " \"$@\"\n");
    strv_free(&argv);
}

int
emit_json(const struct plan *plan, struct buf *out)
{
    char *text = plan_to_json(plan);
    if (!text)
        return -1;
    buf_adds(out, text);
    free(text);
    return 0;
}
