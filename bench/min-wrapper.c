/* bench/min-wrapper.c - the least a supervising wrapper can do: start its arguments as a
 * child with posix_spawn, wait, pass the exit status on. Built static by
 * bench/exec-overhead.sh to measure the floor any wrapper around bwrap pays on this
 * machine (one more process start), side by side with nook-exec and agent-nook. */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

extern char **environ;

int
main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: min-wrapper PROGRAM [ARG...]\n", stderr);
        return 125;
    }
    pid_t pid;
    int status;
    if (posix_spawn(&pid, argv[1], NULL, NULL, argv + 1, environ) != 0 ||
        waitpid(pid, &status, 0) < 0)
        return 125;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
