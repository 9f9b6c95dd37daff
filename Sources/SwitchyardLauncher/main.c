// `switchyard-launcher`, what the systemd unit runs: a statically linked launcher whose first
// act is to block the stop and reload signals, and whose second is to exec the Swift program,
// `switchyard`, from the directory it was itself started from, with the same arguments,
// environment and descriptors.
//
// Why: a signal mask survives execve, so the Swift program starts with SIGTERM, SIGINT and
// SIGHUP already blocked, and one that arrives while the dynamic loader maps the Swift runtime,
// Foundation, libcurl and the rest (tens of milliseconds on a loaded machine) stays pending
// until the bus's signal thread takes it with sigwait. The Swift program's own start-up
// constructor (CSwitchyardStartup) could only block them after all of that had loaded. Being
// static, the launcher itself loads nothing: the only moments a stop signal still has its
// default action are the kernel's own exec and the C library's few microseconds of set-up
// before `main`. People type `switchyard` itself (so `swift run switchyard` runs the code as
// it is now); a service manager that may stop the bus while it starts runs this launcher.
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char bus_program[] = "switchyard";

// SwiftPM links every executable through the Swift driver, which adds swiftrt.o: its
// constructor registers the image's Swift metadata with the runtime. The launcher has no Swift
// code or metadata, so these two definitions (doing nothing, as there is nothing to register)
// satisfy swiftrt.o without pulling the static Swift runtime into a C program: with them the
// launcher is ~0.8 MB and links without glibc's dlopen-in-a-static-program warning.
void swift_addNewDSOImage(const void *header) { (void)header; }
int _swift_backtrace_isThunkFunction(const char *name) { (void)name; return 0; }

int main(int argc, char **argv) {
    (void)argc;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, NULL);

    char path[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) {
        fprintf(stderr, "switchyard-launcher: cannot find the directory it was started from (/proc/self/exe: %s)\n", strerror(errno));
        return 1;
    }
    path[length] = '\0';
    char *slash = strrchr(path, '/');
    size_t directory = slash == NULL ? 0 : (size_t)(slash - path) + 1;
    if (directory + sizeof bus_program > sizeof path) {
        fprintf(stderr, "switchyard-launcher: the path of its directory is too long: %s\n", path);
        return 1;
    }
    memcpy(path + directory, bus_program, sizeof bus_program);
    execv(path, argv);
    fprintf(stderr, "switchyard-launcher: cannot run the bus program %s: %s\n"
            "switchyard-launcher: the bus program is installed next to switchyard-launcher (`swift build` builds both; see docs/install.md)\n",
            path, strerror(errno));
    return 1;
}
