/* nookc-review.h - nookc's policy review subcommands: lint, explain, diff.
 *
 * Each takes the arguments after nookc (argv[0] is the subcommand's name) and returns
 * nookc's exit status: 0 ok, 1 a profile rejected or the review failed (lint findings at
 * --fail-on, diff --fail-on-weaker), 2 usage or I/O error.
 */
#ifndef NOOK_NOOKC_REVIEW_H
#define NOOK_NOOKC_REVIEW_H

int review_lint_main(int argc, char **argv);
int review_explain_main(int argc, char **argv);
int review_diff_main(int argc, char **argv);

#endif
