/* unit-util.h - assertions the unit tests share. Include after <cmocka.h>. */
#ifndef NOOK_UNIT_UTIL_H
#define NOOK_UNIT_UTIL_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/util.h"

/* "[a] [b] ..." for messages (owned). */
static inline char *
join_argv(const struct strv *sv)
{
    struct buf b = {0};
    buf_adds(&b, "");
    for (size_t i = 0; i < sv->n; i++)
        buf_printf(&b, "%s[%s]", i ? " " : "", sv->v[i]);
    return b.data;
}

/* The whole vector must equal the NULL-terminated list `expected` (and stay
 * NULL-terminated); prints both on a mismatch. */
static inline void
assert_strv(const struct strv *got, const char *const *expected)
{
    size_t n = 0;
    while (expected[n])
        n++;
    bool same = got->n == n && (n == 0 || got->v[n] == NULL);
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(got->v[i], expected[i]) == 0;
    if (!same) {
        struct strv exp = {0};
        for (size_t i = 0; i < n; i++)
            strv_push(&exp, expected[i]);
        char *g = join_argv(got), *e = join_argv(&exp);
        print_error("vector differs\n  got:      %s\n  expected: %s\n", g, e);
        free(g);
        free(e);
        strv_free(&exp);
        fail();
    }
}

#endif
