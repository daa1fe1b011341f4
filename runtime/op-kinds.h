/* op-kinds.h - the one list of plan operation kinds.
 *
 * X(ENUM_SUFFIX, plan/profile name, bwrap option). Expanded into the enum, the name
 * tables, the bwrap lowering and the plan reader, so adding a kind is one line here
 * plus the cases -Wswitch-enum then asks for.
 */
#ifndef NOOK_OP_KINDS_H
#define NOOK_OP_KINDS_H

#define PLAN_OP_KINDS(X)                                                                       \
    X(BIND, "bind", "--bind")                                                                  \
    X(RO_BIND, "ro-bind", "--ro-bind")                                                         \
    X(DEV_BIND, "dev-bind", "--dev-bind")                                                      \
    X(TMPFS, "tmpfs", "--tmpfs")                                                               \
    X(PROC, "proc", "--proc")                                                                  \
    X(DEV, "dev", "--dev")                                                                     \
    X(DIR, "dir", "--dir")                                                                     \
    X(OVERLAY, "overlay", "--overlay")                                                         \
    X(RO_OVERLAY, "ro-overlay", "--ro-overlay")                                                \
    X(TMP_OVERLAY, "tmp-overlay", "--tmp-overlay")                                             \
    X(SYMLINK, "symlink", "--symlink")                                                         \
    X(REMOUNT_RO, "remount-ro", "--remount-ro")

#endif
