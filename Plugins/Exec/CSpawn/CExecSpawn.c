#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "CExecSpawn.h"

int cexec_pipe_cloexec(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

int cexec_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cexec_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
