/* fuzz-parsers.c - libFuzzer target: path normalisation and the small parsers.
 *
 * path_normalize is idempotent and its output absolute, without ".", "..", "//" or a
 * trailing '/'; component-wise ancestry agrees with a prefix test on normalised paths;
 * the size, mode, timeout, capability, hostname and environment-name parsers never
 * crash and keep their documented ranges.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/parse.h"
#include "../../runtime/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    const char *why;

    char *norm = NULL;
    if (path_normalize(s, &norm, &why) == 0) {
        char *again = NULL;
        if (path_normalize(norm, &again, &why) != 0 || strcmp(norm, again) != 0)
            abort();
        if (norm[0] != '/' || strstr(norm, "//") || strstr(norm, "/./") ||
            strstr(norm, "/../") || (strlen(norm) > 1 && norm[strlen(norm) - 1] == '/'))
            abort();
        size_t n = strlen(norm);
        if ((n >= 2 && strcmp(norm + n - 2, "/.") == 0) ||
            (n >= 3 && strcmp(norm + n - 3, "/..") == 0))
            abort();
        /* ancestry: "/a" is an ancestor of "/a/x", never of "/ab" or itself */
        char *child = strcmp(norm, "/") == 0 ? xstrdup("/x") : xasprintf("%s/x", norm);
        char *sibling = xasprintf("%sx", norm);
        if (!path_is_ancestor(norm, child) || path_is_ancestor(norm, norm) ||
            (strcmp(norm, "/") != 0 && path_is_ancestor(norm, sibling)))
            abort();
        free(child);
        free(sibling);
        free(again);
        free(norm);
    }
    uint64_t bytes;
    if (parse_size(s, &bytes, &why) == 0 && (bytes == 0 || bytes > (uint64_t)INT64_MAX))
        abort();
    unsigned mode;
    if (parse_mode(s, &mode, &why) == 0 && mode > 07777)
        abort();
    uint64_t ms;
    if (parse_timeout(s, &ms, &why) == 0 && (ms == 0 || ms > 31536000000ULL))
        abort();
    char *cap = NULL;
    if (parse_cap(s, &cap, &why) == 0) {
        if (strcmp(cap, "ALL") != 0 && strncmp(cap, "CAP_", 4) != 0)
            abort();
        free(cap);
    }
    if (check_hostname(s, &why) == 0 && (strlen(s) > 64 || strchr(s, '/') || strchr(s, ' ')))
        abort();
    if (check_env_name(s, size, &why) == 0 && (size == 0 || strchr(s, '=')))
        abort();
    char *err = NULL;
    char *x = expand_vars(s, &err);
    free(x);
    free(err);
    free(s);
    return 0;
}
