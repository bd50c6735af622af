// rea-supervisor: the part of REA's supervisor that runs while REA lives, for REA's Linux builds.
//
// While REA runs, its supervisor has one job: notice that REA has ended. A Node.js process doing that costs about
// 100 ms of CPU to boot (on a 2-core machine, taken from the capture REA is starting) and 40 MB of memory for the
// whole of REA's life. This program waits instead, and hands over to the Node.js supervisor (dist/supervisor.cjs,
// which reads the registry and cleans up) only when REA ended with a capture still registered.
//
// Usage, as src/process/supervisor.ts starts it: rea-supervisor NODE SCRIPT ARGUMENT...
//   Descriptor 0 is a pipe from REA: REA writes nothing to it; its end of file says REA has ended.
//   Descriptor 3 is the registry file: REA empties it whenever no capture is registered, so a registry that is
//   empty at the end says there is nothing to clean up.
// At REA's end it exits 0 when the registry is empty; otherwise it executes NODE SCRIPT ARGUMENT... with its
// descriptors 0 (at end of file) and 3, as REA would have started the Node.js supervisor itself.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define REGISTRY_FD 3

// A capture's PTY master opened without close-on-exec (node-pty's) would otherwise stay open here, and keep the
// capture's terminal from hanging up, for as long as REA lives; nothing but 0 to 3 is this program's.
static void close_inherited_descriptors(void) {
  DIR *directory = opendir("/proc/self/fd");
  if (directory == NULL) {
    return;
  }
  int own = dirfd(directory);
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    char *end;
    long fd = strtol(entry->d_name, &end, 10);
    if (*end == '\0' && end != entry->d_name && fd > REGISTRY_FD && fd != own) {
      close((int)fd);
    }
  }
  closedir(directory);
}

// Returns once REA has ended: its end of the pipe is closed, by its exit or by the kernel when it died.
static void wait_for_end_of_file(void) {
  char buffer[512];
  for (;;) {
    ssize_t count = read(STDIN_FILENO, buffer, sizeof buffer);
    if (count == 0 || (count < 0 && errno != EINTR)) {
      return;
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    return 2;
  }
  close_inherited_descriptors();
  wait_for_end_of_file();
  struct stat registry;
  if (fstat(REGISTRY_FD, &registry) == 0 && registry.st_size == 0) {
    return 0;
  }
  // A registry that cannot be read is handed over too: the Node.js supervisor decides what it holds.
  execv(argv[1], argv + 1);
  return 127;
}
