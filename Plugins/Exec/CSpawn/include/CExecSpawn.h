#ifndef C_EXEC_SPAWN_H
#define C_EXEC_SPAWN_H

#include <spawn.h>

// Swift's Glibc module is imported without _GNU_SOURCE, which hides the calls below; these
// wrappers are compiled with it. Each returns what the glibc call returns.

/// pipe2(fds, O_CLOEXEC), plus O_NONBLOCK on both ends when `nonblocking` is non-zero.
int cexec_pipe_cloexec(int fds[2], int nonblocking);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor >= `from`.
int cexec_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from);

/// posix_spawn_file_actions_addchdir_np: the child changes to `path` before exec.
int cexec_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
