// Starts REA's supervisor waiter (supervisor-waiter.c): a detached child in a session of its own, for REA's Linux
// builds.
//
// Why not child_process.spawn: the supervisor starts with every `rea capture-process`, and Node's first spawn of a
// process loads its child-process and stream machinery and forks the whole process: about 8 ms of the CLI's
// start-up, against well under 1 ms here. The waiter reads only the end of file of its pipe and never writes, so
// a pipe descriptor is all REA needs of it.
//
// Export:
//   spawnDetached(path, argv, registryFd) -> { pid, pipe }
//     Runs path with argv, an empty environment and / as its directory, in a new session, with every signal at
//     its default action and none blocked. Its descriptor 0 is the read end of a new pipe, 1 and 2 are
//     /dev/null, 3 is registryFd. pipe is the write end (close-on-exec), which REA keeps open while it lives: its
//     close, at REA's exit or death, is the waiter's signal. A thread reaps the child when it ends, so it never
//     stays a zombie of REA. Throws an Error with `errno` and `syscall` when it cannot be started.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rea-native.h"

typedef struct {
  int error;
  const char *failed_call;
} child_failure;

// The child's side between vfork and exec: system calls only (it borrows the parent's memory).
static void run_detached_child(const char *path, char *const *argv, int pipe_in, int null_fd, int registry_fd,
                               volatile child_failure *failure) {
  static char *const empty_environment[] = {NULL};
  const unsigned long no_signals = 0;
  reset_signal_actions();
  if (setsid() == -1) {
    failure->failed_call = "setsid";
  } else if (dup2(pipe_in, 0) == -1 || dup2(null_fd, 1) == -1 || dup2(null_fd, 2) == -1) {
    failure->failed_call = "dup2";
  } else if (registry_fd == 3 ? fcntl(3, F_SETFD, 0) == -1 : dup2(registry_fd, 3) == -1) {
    // dup2 onto itself would keep close-on-exec set: the flag is cleared instead.
    failure->failed_call = "dup2";
  } else if (chdir("/") == -1) {
    failure->failed_call = "chdir";
  } else {
    set_signal_mask(&no_signals, NULL);
    execve(path, argv, empty_environment);
    failure->failed_call = "execve";
  }
  failure->error = errno;
  _exit(127);
}

static void *reap(void *argument) {
  pid_t pid = (pid_t)(intptr_t)argument;
  while (waitpid(pid, NULL, 0) == -1 && errno == EINTR) {
  }
  return NULL;
}

// Every signal stays blocked in the parent thread while the child borrows its memory (see spawn_in_pty).
static int start_detached(const char *path, char *const *argv, int registry_fd, pid_t *pid_out, int *pipe_out,
                          const char **failed_call) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) == -1) {
    *failed_call = "pipe2";
    return errno;
  }
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd == -1) {
    int error = errno;
    close(ends[0]);
    close(ends[1]);
    *failed_call = "open(/dev/null)";
    return error;
  }
  volatile child_failure failure = {0, NULL};
  const unsigned long all_signals = ~0UL;
  unsigned long previous_mask = 0;
  set_signal_mask(&all_signals, &previous_mask);
  pid_t pid = vfork();
  if (pid == 0) {
    run_detached_child(path, argv, ends[0], null_fd, registry_fd, &failure);
  }
  int vfork_error = errno;
  set_signal_mask(&previous_mask, NULL);
  close(ends[0]);
  close(null_fd);
  int error = 0;
  if (pid == -1) {
    *failed_call = "vfork";
    error = vfork_error;
  } else if (failure.failed_call != NULL) {
    waitpid(pid, NULL, 0);
    *failed_call = failure.failed_call;
    error = failure.error;
  }
  if (error != 0) {
    close(ends[1]);
    return error;
  }
  pthread_t thread;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attributes, 64 * 1024);
  error = pthread_create(&thread, &attributes, reap, (void *)(intptr_t)pid);
  pthread_attr_destroy(&attributes);
  if (error != 0) {
    // Nothing could reap it: the waiter is not started rather than left to become a zombie.
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(ends[1]);
    *failed_call = "pthread_create";
    return error;
  }
  *pid_out = pid;
  *pipe_out = ends[1];
  return 0;
}

static napi_value spawn_detached(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  int32_t registry_fd;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc != 3 ||
      napi_get_value_int32(env, args[2], &registry_fd) != napi_ok || registry_fd < 0) {
    napi_throw_type_error(env, NULL, "usage: spawnDetached(path, argv, registryFd)");
    return NULL;
  }
  napi_value result = NULL;
  char *path = copy_string(env, args[0]);
  char **argv = path == NULL ? NULL : copy_string_array(env, args[1]);
  if (argv != NULL && argv[0] == NULL) {
    napi_throw_type_error(env, NULL, "argv must hold at least the program name");
  } else if (argv != NULL) {
    const char *failed_call = NULL;
    pid_t pid = 0;
    int pipe_fd = -1;
    int error = start_detached(path, argv, registry_fd, &pid, &pipe_fd, &failed_call);
    napi_value pid_value, pipe_value;
    if (error != 0) {
      throw_errno(env, failed_call, error);
    } else if (napi_create_object(env, &result) != napi_ok || napi_create_int32(env, pid, &pid_value) != napi_ok ||
               napi_create_int32(env, pipe_fd, &pipe_value) != napi_ok ||
               napi_set_named_property(env, result, "pid", pid_value) != napi_ok ||
               napi_set_named_property(env, result, "pipe", pipe_value) != napi_ok) {
      // JavaScript will never hold the pipe: closing it tells the waiter REA has ended, and it exits.
      close(pipe_fd);
      result = NULL;
    }
  }
  free(path);
  free_strings(argv);
  return result;
}

napi_status define_detached_spawn(napi_env env, napi_value exports) {
  napi_property_descriptor property = {"spawnDetached", NULL, spawn_detached, NULL, NULL, NULL, napi_enumerable,
                                       NULL};
  return napi_define_properties(env, exports, 1, &property);
}
