/* test-parse.c - the strict value parsers of compiler/parse.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../compiler/parse.h"
#include "../../runtime/util.h"

#define WHY_NUMBER "expected a number of bytes with an optional unit (B, K, M, G, T)"
#define WHY_UNIT                                                                               \
    "unknown size unit (expected B, K, KB, KiB, M, MB, MiB, G, GB, GiB, T, TB or TiB)"
#define WHY_TOO_LARGE "size is too large"
#define WHY_MODE "expected an octal mode such as \"0755\""

/* ---- helpers ---------------------------------------------------------------------- */

static void
assert_size(const char *s, uint64_t expected)
{
    uint64_t v = 0;
    const char *why = NULL;
    if (parse_size(s, &v, &why) != 0)
        fail_msg("parse_size(\"%s\") failed: %s", s, why);
    if (v != expected)
        fail_msg("parse_size(\"%s\") = %llu, expected %llu", s, (unsigned long long)v,
                 (unsigned long long)expected);
}

/* The output is written only on success, so a sentinel must survive an error. */
static void
assert_size_error(const char *s, const char *expected_why)
{
    uint64_t v = 12345;
    const char *why = NULL;
    int r = parse_size(s, &v, &why);
    if (r != -1)
        fail_msg("parse_size(\"%s\") returned %d (value %llu), expected -1", s, r,
                 (unsigned long long)v);
    assert_non_null(why);
    if (strcmp(why, expected_why) != 0)
        fail_msg("parse_size(\"%s\"): why = \"%s\", expected \"%s\"", s, why, expected_why);
    assert_int_equal(v, 12345);
}

static void
assert_mode(const char *s, unsigned expected)
{
    unsigned v = 0;
    const char *why = NULL;
    if (parse_mode(s, &v, &why) != 0)
        fail_msg("parse_mode(\"%s\") failed: %s", s, why);
    assert_int_equal(v, expected);
}

static void
assert_mode_error(const char *s, const char *expected_why)
{
    unsigned v = 4242;
    const char *why = NULL;
    assert_int_equal(parse_mode(s, &v, &why), -1);
    assert_non_null(why);
    assert_string_equal(why, expected_why);
    assert_int_equal(v, 4242);
}

static void
assert_cap(const char *s, const char *expected)
{
    char *out = NULL;
    const char *why = NULL;
    if (parse_cap(s, &out, &why) != 0)
        fail_msg("parse_cap(\"%s\") failed: %s", s, why);
    assert_non_null(out);
    assert_string_equal(out, expected);
    free(out);
}

static void
assert_cap_error(const char *s)
{
    char *out = NULL;
    const char *why = NULL;
    assert_int_equal(parse_cap(s, &out, &why), -1);
    assert_null(out);
    assert_non_null(why);
    assert_string_equal(why, "unknown capability");
}

static void
assert_normalized(const char *in, const char *expected)
{
    char *out = NULL;
    const char *why = NULL;
    if (path_normalize(in, &out, &why) != 0)
        fail_msg("path_normalize(\"%s\") failed: %s", in, why);
    assert_non_null(out);
    assert_string_equal(out, expected);
    free(out);
}

static void
assert_normalize_error(const char *in, const char *expected_why)
{
    char *out = NULL;
    const char *why = NULL;
    assert_int_equal(path_normalize(in, &out, &why), -1);
    assert_null(out);
    assert_non_null(why);
    assert_string_equal(why, expected_why);
}

static void
assert_timeout(const char *seconds, uint64_t expected_ms)
{
    uint64_t ms = 0;
    const char *why = NULL;
    if (parse_timeout(seconds, &ms, &why) != 0)
        fail_msg("parse_timeout(%s) failed: %s", seconds, why);
    if (ms != expected_ms)
        fail_msg("parse_timeout(%s) = %llu ms, expected %llu ms", seconds,
                 (unsigned long long)ms, (unsigned long long)expected_ms);
}

static void
assert_timeout_error(const char *seconds, const char *expected_why)
{
    uint64_t ms = 777;
    const char *why = NULL;
    assert_int_equal(parse_timeout(seconds, &ms, &why), -1);
    assert_non_null(why);
    assert_string_equal(why, expected_why);
    assert_int_equal(ms, 777);
}

static void
assert_expands(const char *in, const char *expected)
{
    char *err = NULL;
    char *out = expand_vars(in, &err);
    if (!out)
        fail_msg("expand_vars(\"%s\") failed: %s", in, err ? err : "(no message)");
    assert_null(err);
    assert_string_equal(out, expected);
    free(out);
}

static void
assert_expand_error(const char *in, const char *expected_err)
{
    char *err = NULL;
    char *out = expand_vars(in, &err);
    if (out)
        fail_msg("expand_vars(\"%s\") = \"%s\", expected an error", in, out);
    assert_non_null(err);
    assert_string_equal(err, expected_err);
    free(err);
}

/* ---- parse_size --------------------------------------------------------------------- */

static void
test_size_plain_number_is_bytes(void **state)
{
    (void)state;
    assert_size("100", 100);
    assert_size("1", 1);
    assert_size("1B", 1);
    assert_size("4096B", 4096);
}

static void
test_size_units_are_binary_multiples(void **state)
{
    (void)state;
    assert_size("100M", 104857600ULL);
    assert_size("500G", 536870912000ULL);
    assert_size("1024K", 1048576ULL);
    assert_size("1K", 1024);
    assert_size("1KB", 1024);
    assert_size("1KiB", 1024);
    assert_size("1M", 1048576ULL);
    assert_size("1MB", 1048576ULL);
    assert_size("1MiB", 1048576ULL);
    assert_size("1G", 1073741824ULL);
    assert_size("1GB", 1073741824ULL);
    assert_size("1GiB", 1073741824ULL);
    assert_size("1T", 1099511627776ULL);
    assert_size("1TB", 1099511627776ULL);
    assert_size("1TiB", 1099511627776ULL);
}

static void
test_size_fraction_is_exact(void **state)
{
    (void)state;
    assert_size("2.5G", 2684354560ULL);
    assert_size("0.5K", 512);
    assert_size("1.5M", 1572864ULL);
    assert_size("0.25T", 274877906944ULL);
    /* fractions of a byte are truncated */
    assert_size("1.9", 1);
    assert_size("1.5B", 1);
}

static void
test_size_surrounding_spaces_are_ignored(void **state)
{
    (void)state;
    assert_size(" 64M ", 67108864ULL);
    assert_size("   7", 7);
    assert_size("7K   ", 7168);
}

static void
test_size_largest_accepted_is_int64_max(void **state)
{
    (void)state;
    assert_size("9223372036854775807", 9223372036854775807ULL);
    assert_size("9223372036854775807B", 9223372036854775807ULL);
    /* 2^63 - 2^40: the largest whole number of TiB */
    assert_size("8388607T", 9223370937343148032ULL);
    /* a fraction never carries past the next whole unit */
    assert_size("8388607.5T", 9223371487098961920ULL);
}

static void
test_size_rejects_non_numbers(void **state)
{
    (void)state;
    assert_size_error("", WHY_NUMBER);
    assert_size_error("   ", WHY_NUMBER);
    assert_size_error("abc", WHY_NUMBER);
    assert_size_error("-1", WHY_NUMBER);
    assert_size_error("+1", WHY_NUMBER);
    assert_size_error("M", WHY_NUMBER);
    assert_size_error(".5G", WHY_NUMBER);
}

static void
test_size_rejects_zero(void **state)
{
    (void)state;
    assert_size_error("0", "size must be at least 1 byte");
    assert_size_error("0G", "size must be at least 1 byte");
    assert_size_error("0.5B", "size must be at least 1 byte");
}

static void
test_size_rejects_unknown_units(void **state)
{
    (void)state;
    assert_size_error("100XY", WHY_UNIT);
    assert_size_error("1e3", WHY_UNIT);
    assert_size_error("1k", WHY_UNIT);
    assert_size_error("1KIB", WHY_UNIT);
    assert_size_error("1P", WHY_UNIT);
}

static void
test_size_rejects_missing_fraction_digits(void **state)
{
    (void)state;
    assert_size_error("1.G", "expected digits after the decimal point");
    assert_size_error("1.", "expected digits after the decimal point");
}

static void
test_size_rejects_space_inside(void **state)
{
    (void)state;
    assert_size_error("1 M", "unexpected characters after the size");
    assert_size_error("1M 2", "unexpected characters after the size");
}

static void
test_size_rejects_two_to_the_63_and_above(void **state)
{
    (void)state;
    assert_size_error("9223372036854775808", WHY_TOO_LARGE);
    assert_size_error("18446744073709551615", WHY_TOO_LARGE);
    assert_size_error("18446744073709551616", WHY_TOO_LARGE);
    assert_size_error("99999999999999999999999999", WHY_TOO_LARGE);
    assert_size_error("8388608T", WHY_TOO_LARGE);
    assert_size_error("8388608TiB", WHY_TOO_LARGE);
    assert_size_error("8589934592G", WHY_TOO_LARGE);
}

/* ---- parse_mode --------------------------------------------------------------------- */

static void
test_mode_accepts_octal_with_optional_leading_zero(void **state)
{
    (void)state;
    assert_mode("0700", 0700);
    assert_mode("755", 0755);
    assert_mode("7777", 07777);
    assert_mode("07777", 07777);
    assert_mode("0", 0);
    assert_mode("1", 01);
    assert_mode("0644", 0644);
}

static void
test_mode_rejects_non_octal(void **state)
{
    (void)state;
    assert_mode_error("", WHY_MODE);
    assert_mode_error("0o755", WHY_MODE);
    assert_mode_error("8", WHY_MODE);
    assert_mode_error("0789", WHY_MODE);
    assert_mode_error("07777a", WHY_MODE);
    assert_mode_error(" 755", WHY_MODE);
    assert_mode_error("-755", WHY_MODE);
}

static void
test_mode_rejects_above_07777(void **state)
{
    (void)state;
    assert_mode_error("17777", "mode is larger than 07777");
    assert_mode_error("10000", "mode is larger than 07777");
}

/* ---- parse_cap ---------------------------------------------------------------------- */

static void
test_cap_with_or_without_prefix_in_any_case(void **state)
{
    (void)state;
    assert_cap("CAP_NET_ADMIN", "CAP_NET_ADMIN");
    assert_cap("NET_ADMIN", "CAP_NET_ADMIN");
    assert_cap("net_admin", "CAP_NET_ADMIN");
    assert_cap("cap_net_admin", "CAP_NET_ADMIN");
    assert_cap("Cap_Sys_Admin", "CAP_SYS_ADMIN");
    assert_cap("chown", "CAP_CHOWN");
    assert_cap("CHECKPOINT_RESTORE", "CAP_CHECKPOINT_RESTORE");
}

static void
test_cap_all_in_any_case(void **state)
{
    (void)state;
    assert_cap("ALL", "ALL");
    assert_cap("all", "ALL");
    assert_cap("All", "ALL");
}

static void
test_cap_rejects_unknown_names_and_numbers(void **state)
{
    (void)state;
    assert_cap_error("NET_ADMINX");
    assert_cap_error("CAP_");
    assert_cap_error("");
    assert_cap_error("12");
    assert_cap_error("CAP_12");
    assert_cap_error("CAP_ALL");
    assert_cap_error(" NET_ADMIN");
}

/* ---- check_hostname ------------------------------------------------------------------ */

static void
test_hostname_up_to_64_bytes(void **state)
{
    (void)state;
    char name[66];
    const char *why = NULL;
    memset(name, 'h', 64);
    name[64] = '\0';
    assert_int_equal(check_hostname(name, &why), 0);
    assert_int_equal(check_hostname("a", &why), 0);
    assert_int_equal(check_hostname("box.example-1", &why), 0);
    name[64] = 'h';
    name[65] = '\0';
    assert_int_equal(check_hostname(name, &why), -1);
    assert_string_equal(why, "hostname is longer than 64 bytes");
}

static void
test_hostname_rejects_empty_slash_whitespace_control(void **state)
{
    (void)state;
    const char *why = NULL;
    assert_int_equal(check_hostname("", &why), -1);
    assert_string_equal(why, "hostname must not be empty");
    why = NULL;
    assert_int_equal(check_hostname("a/b", &why), -1);
    assert_string_equal(why, "hostname must not contain '/'");
    static const char *const bad[] = {"a b", "a\nb", "a\tb", "a\rb", "a\x7f", "\x01"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why = NULL;
        assert_int_equal(check_hostname(bad[i], &why), -1);
        assert_string_equal(why, "hostname must not contain whitespace or control characters");
    }
}

/* ---- check_env_name ------------------------------------------------------------------- */

static void
test_env_name_rules(void **state)
{
    (void)state;
    const char *why = NULL;
    assert_int_equal(check_env_name("PATH", 4, &why), 0);
    assert_int_equal(check_env_name("lower_1", 7, &why), 0);
    assert_int_equal(check_env_name("", 0, &why), -1);
    assert_string_equal(why, "environment variable name must not be empty");
    why = NULL;
    assert_int_equal(check_env_name("A=B", 3, &why), -1);
    assert_string_equal(why, "environment variable name must not contain '='");
    why = NULL;
    assert_int_equal(check_env_name("=", 1, &why), -1);
    assert_string_equal(why, "environment variable name must not contain '='");
    why = NULL;
    /* "A\0B": the real length says there is more after the NUL */
    assert_int_equal(check_env_name("A\0B", 3, &why), -1);
    assert_string_equal(why, "environment variable name contains a NUL character");
    why = NULL;
    assert_int_equal(check_env_name("\0", 1, &why), -1);
    assert_string_equal(why, "environment variable name contains a NUL character");
}

/* ---- parse_timeout -------------------------------------------------------------------- */

static void
test_timeout_rounds_up_to_whole_milliseconds(void **state)
{
    (void)state;
    assert_timeout("10", 10000);
    assert_timeout("1", 1000);
    assert_timeout("0.1", 100);
    assert_timeout("2.5", 2500);
    assert_timeout("0.0001", 1);
    assert_timeout("0.0015", 2);
    assert_timeout("0.0010000", 1);
    assert_timeout("1.005", 1005);
}

static void
test_timeout_up_to_365_days(void **state)
{
    (void)state;
    assert_timeout("31536000", 31536000000ULL);
    assert_timeout("31536000.000", 31536000000ULL);
    assert_timeout_error("31536000.001", "timeout must be at most 31536000 seconds (365 days)");
    assert_timeout_error("31536001", "timeout must be at most 31536000 seconds (365 days)");
    assert_timeout_error("99999999999999999999999",
                         "timeout must be at most 31536000 seconds (365 days)");
}

static void
test_timeout_rejects_zero_and_non_numbers(void **state)
{
    (void)state;
    assert_timeout_error("0", "timeout must be greater than 0");
    assert_timeout_error("0.0000", "timeout must be greater than 0");
    assert_timeout_error("-1", "expected a number of seconds");
    assert_timeout_error("1e3", "expected a number of seconds");
    assert_timeout_error("1.", "expected a number of seconds");
    assert_timeout_error(".5", "expected a number of seconds");
    assert_timeout_error("", "expected a number of seconds");
    assert_timeout_error("nan", "expected a number of seconds");
}

/* Decimal seconds are exact milliseconds: 2.007 * 1000.0 is 2007.0000000000002 in
 * binary floating point, which once became 2008 ms. */
static void
test_timeout_whole_milliseconds_are_not_rounded_up(void **state)
{
    (void)state;
    assert_timeout("2.007", 2007);
    assert_timeout("2.011", 2011);
    assert_timeout("4.001", 4001);
}

/* ---- path_normalize ------------------------------------------------------------------- */

static void
test_normalize_collapses_slashes_and_dots(void **state)
{
    (void)state;
    assert_normalized("/", "/");
    assert_normalized("//", "/");
    assert_normalized("///", "/");
    assert_normalized("/.", "/");
    assert_normalized("/./", "/");
    assert_normalized("/home//u", "/home/u");
    assert_normalized("/home/./u", "/home/u");
    assert_normalized("/home/u/", "/home/u");
    assert_normalized("/home/u//", "/home/u");
    assert_normalized("//home/.//./u/.", "/home/u");
    assert_normalized("/home/u", "/home/u");
    assert_normalized("/.hidden/...", "/.hidden/...");
    assert_normalized("/a../..b", "/a../..b");
}

static void
test_normalize_rejects_relative(void **state)
{
    (void)state;
    assert_normalize_error("", "must be an absolute path");
    assert_normalize_error("home", "must be an absolute path");
    assert_normalize_error("./home", "must be an absolute path");
    assert_normalize_error("..", "must be an absolute path");
    assert_normalize_error("~/x", "must be an absolute path");
}

static void
test_normalize_rejects_dotdot(void **state)
{
    (void)state;
    assert_normalize_error("/..", "'..' is not allowed in paths");
    assert_normalize_error("/home/..", "'..' is not allowed in paths");
    assert_normalize_error("/home/../etc", "'..' is not allowed in paths");
    assert_normalize_error("/home/u/../", "'..' is not allowed in paths");
}

static void
test_normalize_rejects_control_characters(void **state)
{
    (void)state;
    assert_normalize_error("/a\nb", "path contains a control character");
    assert_normalize_error("/a/\tb", "path contains a control character");
    assert_normalize_error("/a\x7f", "path contains a control character");
    assert_normalize_error("/\x01", "path contains a control character");
}

static void
test_normalize_component_limit_is_255_bytes(void **state)
{
    (void)state;
    char in[300], expected[300];
    in[0] = '/';
    memset(in + 1, 'c', 255);
    in[256] = '\0';
    memcpy(expected, in, 257);
    assert_normalized(in, expected);
    in[256] = 'c';
    in[257] = '\0';
    assert_normalize_error(in, "path component is longer than 255 bytes");
}

static void
test_normalize_path_limit_is_4096_bytes(void **state)
{
    (void)state;
    /* 16 components of "/" + 255 bytes = 4096 bytes */
    char in[4200];
    size_t n = 0;
    for (int i = 0; i < 16; i++) {
        in[n++] = '/';
        memset(in + n, 'a' + i, 255);
        n += 255;
    }
    in[n] = '\0';
    assert_int_equal(n, 4096);
    assert_normalized(in, in);
    /* one more '/' makes 4097 bytes, even though it would normalise away */
    in[n++] = '/';
    in[n] = '\0';
    assert_normalize_error(in, "path is longer than 4096 bytes");
}

/* ---- path_order ------------------------------------------------------------------------ */

static int
order_cmp(const void *a, const void *b)
{
    return path_order(*(const char *const *)a, *(const char *const *)b);
}

static void
test_path_order_puts_descendants_right_after_their_parent(void **state)
{
    (void)state;
    const char *paths[] = {"/a-b", "/a/b/c", "/b", "/a", "/", "/a.b", "/a/b", "/a/c", "/ab"};
    qsort(paths, sizeof paths / sizeof paths[0], sizeof paths[0], order_cmp);
    const char *want[] = {"/", "/a", "/a/b", "/a/b/c", "/a/c", "/a-b", "/a.b", "/ab", "/b"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_string_equal(paths[i], want[i]);
    assert_int_equal(path_order("/a", "/a"), 0);
    assert_true(path_order("/a/\xff", "/a-") < 0); /* high bytes after '/', too */
    assert_true(path_order("/a\xff", "/a/z") > 0);
}

/* ---- path_is_ancestor ------------------------------------------------------------------ */

static void
test_ancestor_compares_whole_components(void **state)
{
    (void)state;
    assert_true(path_is_ancestor("/home", "/home/u"));
    assert_true(path_is_ancestor("/home", "/home/u/v"));
    assert_true(path_is_ancestor("/home/u", "/home/u/v"));
    assert_false(path_is_ancestor("/home", "/home-u"));
    assert_false(path_is_ancestor("/home", "/homeu"));
    assert_false(path_is_ancestor("/home/u", "/home"));
    assert_false(path_is_ancestor("/home/u", "/home/v/u"));
    assert_false(path_is_ancestor("/a/b", "/a"));
}

static void
test_ancestor_root_is_ancestor_of_everything_but_itself(void **state)
{
    (void)state;
    assert_true(path_is_ancestor("/", "/a"));
    assert_true(path_is_ancestor("/", "/a/b/c"));
    assert_false(path_is_ancestor("/", "/"));
}

static void
test_ancestor_is_strict(void **state)
{
    (void)state;
    assert_false(path_is_ancestor("/home", "/home"));
    assert_false(path_is_ancestor("/home/u", "/home/u"));
}

/* ---- expand_vars ------------------------------------------------------------------------ */

static void
test_expand_braced_variable(void **state)
{
    (void)state;
    setenv("NOOK_T_X", "value", 1);
    assert_expands("${NOOK_T_X}", "value");
    assert_expands("/a/${NOOK_T_X}/b${NOOK_T_X}", "/a/value/bvalue");
    setenv("NOOK_T_X", "", 1);
    assert_expands("[${NOOK_T_X}]", "[]");
    setenv("NOOK_T_X", "${NOOK_T_Y}$$", 1);
    /* a value is inserted as is, never expanded again */
    assert_expands("${NOOK_T_X}", "${NOOK_T_Y}$$");
    unsetenv("NOOK_T_X");
}

static void
test_expand_default_when_unset_or_empty(void **state)
{
    (void)state;
    unsetenv("NOOK_T_X");
    assert_expands("${NOOK_T_X:-d}", "d");
    assert_expands("${NOOK_T_X:-}", "");
    assert_expands("${NOOK_T_X:-/some path}/x", "/some path/x");
    setenv("NOOK_T_X", "", 1);
    assert_expands("${NOOK_T_X:-d}", "d");
    setenv("NOOK_T_X", "set", 1);
    assert_expands("${NOOK_T_X:-d}", "set");
    unsetenv("NOOK_T_X");
}

static void
test_expand_unset_without_default_is_an_error(void **state)
{
    (void)state;
    unsetenv("NOOK_T_X");
    assert_expand_error("${NOOK_T_X}", "environment variable 'NOOK_T_X' is not set (write "
                                       "${NOOK_T_X:-default} to give a default)");
    assert_expand_error("/a/${NOOK_T_X}/b", "environment variable 'NOOK_T_X' is not set "
                                            "(write ${NOOK_T_X:-default} to give a default)");
}

static void
test_expand_leading_tilde_is_home(void **state)
{
    (void)state;
    char *saved = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
    setenv("HOME", "/home/tester", 1);
    assert_expands("~", "/home/tester");
    assert_expands("~/x", "/home/tester/x");
    assert_expands("~/", "/home/tester/");
    assert_expands("~user", "~user");
    assert_expands("~user/x", "~user/x");
    assert_expands("/a/~/b", "/a/~/b");
    assert_expands("x~", "x~");
    /* HOME is inserted as is */
    setenv("HOME", "/h/${NOOK_T_UNSET}", 1);
    assert_expands("~/x", "/h/${NOOK_T_UNSET}/x");
    if (saved)
        setenv("HOME", saved, 1);
    else
        unsetenv("HOME");
    free(saved);
}

static void
test_expand_tilde_without_home_is_an_error(void **state)
{
    (void)state;
    char *saved = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
    unsetenv("HOME");
    assert_expand_error("~", "'~' used but HOME is not set");
    assert_expand_error("~/x", "'~' used but HOME is not set");
    assert_expands("~user", "~user");
    setenv("HOME", "", 1);
    assert_expand_error("~/x", "'~' used but HOME is not set");
    if (saved)
        setenv("HOME", saved, 1);
    else
        unsetenv("HOME");
    free(saved);
}

static void
test_expand_double_dollar_is_literal_dollar(void **state)
{
    (void)state;
    setenv("NOOK_T_X", "value", 1);
    assert_expands("$$", "$");
    assert_expands("a$$b", "a$b");
    assert_expands("$$$$", "$$");
    assert_expands("$${NOOK_T_X}", "${NOOK_T_X}");
    assert_expands("$$$", "$$");
    unsetenv("NOOK_T_X");
}

static void
test_expand_other_dollars_are_literal(void **state)
{
    (void)state;
    setenv("NOOK_T_X", "value", 1);
    assert_expands("$NOOK_T_X", "$NOOK_T_X");
    assert_expands("$", "$");
    assert_expands("a$", "a$");
    assert_expands("$(id)", "$(id)");
    assert_expands("{NOOK_T_X}", "{NOOK_T_X}");
    assert_expands("", "");
    assert_expands("plain /text", "plain /text");
    unsetenv("NOOK_T_X");
}

static void
test_expand_rejects_malformed_references(void **state)
{
    (void)state;
    setenv("NOOK_T_X", "value", 1);
    assert_expand_error("${}", "invalid variable reference '${}' (expected ${NAME} or "
                               "${NAME:-default})");
    assert_expand_error("a${NOOK_T_X:d}b", "invalid variable reference '${NOOK_T_X:d}' "
                                           "(expected ${NAME} or ${NAME:-default})");
    assert_expand_error("/x/${NOOK_T_X", "invalid variable reference '${NOOK_T_X' (expected "
                                         "${NAME} or ${NAME:-default})");
    assert_expand_error("${NOOK_T_X:-d", "invalid variable reference '${NOOK_T_X:-d' "
                                         "(expected ${NAME} or ${NAME:-default})");
    assert_expand_error("${1A}", "invalid variable reference '${1A}' (expected ${NAME} or "
                                 "${NAME:-default})");
    assert_expand_error("${A B}", "invalid variable reference '${A B}' (expected ${NAME} or "
                                  "${NAME:-default})");
    assert_expand_error("${", "invalid variable reference '${' (expected ${NAME} or "
                              "${NAME:-default})");
    unsetenv("NOOK_T_X");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_plain_number_is_bytes),
        cmocka_unit_test(test_size_units_are_binary_multiples),
        cmocka_unit_test(test_size_fraction_is_exact),
        cmocka_unit_test(test_size_surrounding_spaces_are_ignored),
        cmocka_unit_test(test_size_largest_accepted_is_int64_max),
        cmocka_unit_test(test_size_rejects_non_numbers),
        cmocka_unit_test(test_size_rejects_zero),
        cmocka_unit_test(test_size_rejects_unknown_units),
        cmocka_unit_test(test_size_rejects_missing_fraction_digits),
        cmocka_unit_test(test_size_rejects_space_inside),
        cmocka_unit_test(test_size_rejects_two_to_the_63_and_above),
        cmocka_unit_test(test_mode_accepts_octal_with_optional_leading_zero),
        cmocka_unit_test(test_mode_rejects_non_octal),
        cmocka_unit_test(test_mode_rejects_above_07777),
        cmocka_unit_test(test_cap_with_or_without_prefix_in_any_case),
        cmocka_unit_test(test_cap_all_in_any_case),
        cmocka_unit_test(test_cap_rejects_unknown_names_and_numbers),
        cmocka_unit_test(test_hostname_up_to_64_bytes),
        cmocka_unit_test(test_hostname_rejects_empty_slash_whitespace_control),
        cmocka_unit_test(test_env_name_rules),
        cmocka_unit_test(test_timeout_rounds_up_to_whole_milliseconds),
        cmocka_unit_test(test_timeout_up_to_365_days),
        cmocka_unit_test(test_timeout_rejects_zero_and_non_numbers),
        cmocka_unit_test(test_timeout_whole_milliseconds_are_not_rounded_up),
        cmocka_unit_test(test_normalize_collapses_slashes_and_dots),
        cmocka_unit_test(test_normalize_rejects_relative),
        cmocka_unit_test(test_normalize_rejects_dotdot),
        cmocka_unit_test(test_normalize_rejects_control_characters),
        cmocka_unit_test(test_normalize_component_limit_is_255_bytes),
        cmocka_unit_test(test_normalize_path_limit_is_4096_bytes),
        cmocka_unit_test(test_path_order_puts_descendants_right_after_their_parent),
        cmocka_unit_test(test_ancestor_compares_whole_components),
        cmocka_unit_test(test_ancestor_root_is_ancestor_of_everything_but_itself),
        cmocka_unit_test(test_ancestor_is_strict),
        cmocka_unit_test(test_expand_braced_variable),
        cmocka_unit_test(test_expand_default_when_unset_or_empty),
        cmocka_unit_test(test_expand_unset_without_default_is_an_error),
        cmocka_unit_test(test_expand_leading_tilde_is_home),
        cmocka_unit_test(test_expand_tilde_without_home_is_an_error),
        cmocka_unit_test(test_expand_double_dollar_is_literal_dollar),
        cmocka_unit_test(test_expand_other_dollars_are_literal),
        cmocka_unit_test(test_expand_rejects_malformed_references),
    };
    return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
