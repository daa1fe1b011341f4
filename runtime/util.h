/* util.h - allocation wrappers, growable string vectors and buffers, cleanup helpers.
 *
 * Shared by the runtime and the compiler. Allocation failure aborts (x* wrappers): a
 * sandbox tool that runs out of memory has nothing sensible to fall back to.
 */
#ifndef NOOK_UTIL_H
#define NOOK_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOOK_VERSION "0.1.0"

#define NOOK_PRINTF(a, b) __attribute__((format(printf, a, b)))

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows an array of n elements of size `size` so it can hold at least `need` elements;
 * updates *cap. */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) NOOK_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap) NOOK_PRINTF(1, 0);

static inline void
cleanup_freep(void *p)
{
    void **pp = p;
    free(*pp);
    *pp = NULL;
}
#define cleanup_free __attribute__((cleanup(cleanup_freep)))

/* Hands ownership of *pp to the caller and clears the variable. */
#define steal_pointer(pp) nook_steal_pointer((void **)(pp))
static inline void *
nook_steal_pointer(void **pp)
{
    void *p = *pp;
    *pp = NULL;
    return p;
}

/* A command-line error of one of the programs: "PROG: error: MESSAGE" on stderr, then
 * "Try 'HELP' for more information." unless help is NULL. Returns status. */
int cli_error(int status, const char *prog, const char *help, const char *fmt, ...)
    NOOK_PRINTF(4, 5);

/* A NULL-terminated vector of owned strings. */
struct strv {
    char **v; /* owned, each element owned */
    size_t n;
    size_t cap;
};

void strv_push(struct strv *sv, const char *s);
void strv_push_take(struct strv *sv, char *s);
void strv_free(struct strv *sv);
/* Whether `s` is one of the strings (a linear scan: these vectors are short). */
bool strv_has(const struct strv *sv, const char *s);

/* A growable byte buffer, always NUL-terminated. */
struct buf {
    char *data; /* owned */
    size_t len;
    size_t cap;
};

void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) NOOK_PRINTF(2, 3);
void buf_free(struct buf *b);

/* Appends s to b as one POSIX shell word: single-quoted, with ' written as '\''.
 * The result never needs a shell feature beyond plain single quotes. */
void buf_add_shell_word(struct buf *b, const char *s);

/* Returns true when s (len bytes) is valid UTF-8 without overlong forms or surrogates. */
bool utf8_valid(const char *s, size_t len);

/* Writes len bytes to fd, retrying on EINTR and short writes. Returns 0 or -1/errno. */
int write_all(int fd, const void *data, size_t len);

/* Writes data to path atomically: a temporary file in the same directory, fsync,
 * rename over path. Never follows a symlink at path's final component (rename replaces
 * the link). mode is applied to the new file. Returns 0, or -1 with errno set; on
 * failure nothing is left behind. */
int write_file_atomic(const char *path, const void *data, size_t len, unsigned mode);

/* Reads fd to its end into out (NUL-terminated) unless it holds more than `cap` bytes.
 * Returns 0, -1 with errno set, or -2 when larger than cap (out is freed then). */
int read_fd_capped(int fd, size_t cap, struct buf *out);

/* An XDG base directory path: "$VAR/leaf" when $VAR is absolute, else
 * "$HOME/home_rel/leaf" (the spec's fallback for unset, empty or relative values).
 * Owned; NULL when neither is usable. */
char *xdg_path(const char *var, const char *home_rel, const char *leaf);

/* mkdir -p: creates path and its missing ancestors with `mode`. Returns 0, or -1 with
 * errno set. mkdir_parent does the same for path's directory. */
int mkdir_p(const char *path, unsigned mode);
int mkdir_parent(const char *path, unsigned mode);

/* Looks an executable up in $PATH (or an absolute/relative path with a '/').
 * Returns an owned absolute path or NULL. */
char *find_in_path(const char *name);

#endif
