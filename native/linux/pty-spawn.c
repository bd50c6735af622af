// Starts a process in a new pseudo-terminal, for REA's Linux PTY backend.
//
// Why not forkpty (what node-pty does on Linux): fork() copies the page tables of the whole parent, so its cost
// grows with the parent's memory, which is large inside a test runner's worker that loaded REA, xterm and zod.
// vfork() lends the child the parent's memory until it execs, and the cost stays flat.
// glibc's posix_spawn does the same, but it leaves the child with glibc's two internal signals ignored, which
// a forked child does not inherit; the few steps between vfork and exec are therefore written out here. A
// failed exec is reported as an error, where node-pty's forked child could only print one and exit 1.
//
// The child is set up exactly as node-pty sets up its forkpty child, so captures do not depend on the backend:
// the same termios and window size, a new session whose controlling terminal is the PTY, the PTY on fds 0-2,
// every signal at its default action and none blocked, the working directory, and the given environment.
//
// Exports:
//   spawn(path, argv, envp, cwd, columns, rows, onExit) -> { fd, slave, pid }
//     path is the file to execute (already resolved); argv[0] is what the child sees as its name. fd is the
//     master; slave a close-on-exec descriptor on the slave, which the caller owns and closes.
//     onExit(exitCode, signal) is called once, from the event loop, after waitpid reaped the child.
//     Throws an Error with `errno` and `syscall` when the PTY cannot be opened or the exec fails.
//   resize(fd, columns, rows)
//     Sets the window size on the master; the kernel sends SIGWINCH to the foreground process group.
//   unreadInput(fd) -> number
//     How many bytes typed into the terminal wait in its input queue, unread by the program: FIONREAD on a
//     descriptor of the slave. In canonical mode the kernel counts only complete lines (a line being edited is
//     not readable yet). Throws an Error with `errno` when the descriptor is not a terminal.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "rea-native.h"

#define CHECK(call)                                                                                                 \
  do {                                                                                                              \
    if ((call) != napi_ok) {                                                                                        \
      return NULL;                                                                                                  \
    }                                                                                                               \
  } while (0)

napi_value throw_errno(napi_env env, const char *syscall, int error) {
  char message[256];
  snprintf(message, sizeof message, "%s failed: %s", syscall, strerror(error));
  napi_value text, error_object, error_number, syscall_name;
  if (napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) == napi_ok &&
      napi_create_error(env, NULL, text, &error_object) == napi_ok) {
    if (napi_create_int32(env, error, &error_number) == napi_ok) {
      napi_set_named_property(env, error_object, "errno", error_number);
    }
    if (napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &syscall_name) == napi_ok) {
      napi_set_named_property(env, error_object, "syscall", syscall_name);
    }
    napi_throw(env, error_object);
  }
  return NULL;
}

// A string argument copied into malloc'd memory; NULL (with a pending JS exception) when it is not a string.
char *copy_string(napi_env env, napi_value value) {
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a string");
    return NULL;
  }
  char *text = malloc(length + 1);
  if (text == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

void free_strings(char **strings) {
  if (strings == NULL) {
    return;
  }
  for (char **entry = strings; *entry != NULL; entry++) {
    free(*entry);
  }
  free(strings);
}

// A JS array of strings as a NULL-terminated vector, the shape execve takes.
char **copy_string_array(napi_env env, napi_value array) {
  uint32_t length;
  if (napi_get_array_length(env, array, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected an array of strings");
    return NULL;
  }
  char **strings = calloc(length + 1, sizeof(char *));
  if (strings == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  for (uint32_t index = 0; index < length; index++) {
    napi_value element;
    if (napi_get_element(env, array, index, &element) != napi_ok ||
        (strings[index] = copy_string(env, element)) == NULL) {
      free_strings(strings);
      return NULL;
    }
  }
  return strings;
}

// node-pty's termios for a child that is not told its input is UTF-8 (REA reads raw bytes: encoding null).
static void default_termios(struct termios *term) {
  memset(term, 0, sizeof *term);
  term->c_iflag = ICRNL | IXON | IXANY | IMAXBEL | BRKINT;
  term->c_oflag = OPOST | ONLCR;
  term->c_cflag = CREAD | CS8 | HUPCL;
  term->c_lflag = ICANON | ISIG | IEXTEN | ECHO | ECHOE | ECHOK | ECHOKE | ECHOCTL;
  term->c_cc[VEOF] = 4;
  term->c_cc[VEOL] = (cc_t)-1;
  term->c_cc[VEOL2] = (cc_t)-1;
  term->c_cc[VERASE] = 0x7f;
  term->c_cc[VWERASE] = 23;
  term->c_cc[VKILL] = 21;
  term->c_cc[VREPRINT] = 18;
  term->c_cc[VINTR] = 3;
  term->c_cc[VQUIT] = 0x1c;
  term->c_cc[VSUSP] = 26;
  term->c_cc[VSTART] = 17;
  term->c_cc[VSTOP] = 19;
  term->c_cc[VLNEXT] = 22;
  term->c_cc[VDISCARD] = 15;
  term->c_cc[VMIN] = 1;
  term->c_cc[VTIME] = 0;
  cfsetispeed(term, B38400);
  cfsetospeed(term, B38400);
}

typedef struct {
  pid_t pid;
  napi_threadsafe_function on_exit;
} exit_watch;

typedef struct {
  int exit_code;
  int signal;
} exit_status;

// Runs on the event loop: calls onExit(exitCode, signal) with node-pty's convention (exit code 0 on a signal).
static void call_on_exit(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  exit_status *status = data;
  if (env != NULL && callback != NULL) {
    napi_value global, arguments[2];
    if (napi_get_global(env, &global) == napi_ok && napi_create_int32(env, status->exit_code, &arguments[0]) == napi_ok &&
        napi_create_int32(env, status->signal, &arguments[1]) == napi_ok) {
      napi_call_function(env, global, callback, 2, arguments, NULL);
    }
  }
  free(status);
}

// One thread per child blocks in waitpid, as node-pty's does: it reaps only this PID, so libuv's own SIGCHLD
// handling for child_process is untouched. The threadsafe function keeps the event loop alive until the exit.
static void *wait_for_exit(void *argument) {
  exit_watch *watch = argument;
  int status = 0;
  pid_t reaped;
  do {
    reaped = waitpid(watch->pid, &status, 0);
  } while (reaped == -1 && errno == EINTR);
  exit_status *result = calloc(1, sizeof *result);
  if (result != NULL) {
    if (reaped == -1) {
      result->exit_code = -1;
    } else if (WIFSIGNALED(status)) {
      result->signal = WTERMSIG(status);
    } else {
      result->exit_code = WEXITSTATUS(status);
    }
    if (napi_call_threadsafe_function(watch->on_exit, result, napi_tsfn_blocking) != napi_ok) {
      // The environment is shutting down (a worker thread ended): nobody is left to tell.
      free(result);
    }
  }
  napi_release_threadsafe_function(watch->on_exit, napi_tsfn_release);
  free(watch);
  return NULL;
}

// Opens a PTY pair: the master (non-blocking, close-on-exec) and the slave, on which it sets the termios and
// window size the child starts with. The child takes the slave as its terminal; the parent's copy is handed to
// the caller, whose drain needs a descriptor on the slave of its own.
static int open_pty(const struct winsize *size, int *master_out, int *slave_out, char *slave_path,
                    size_t slave_path_size, const char **failed_call) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (master == -1) {
    *failed_call = "posix_openpt";
    return errno;
  }
  int error = 0;
  if (grantpt(master) == -1) {
    *failed_call = "grantpt";
    error = errno;
  } else if (unlockpt(master) == -1) {
    *failed_call = "unlockpt";
    error = errno;
  } else if ((error = ptsname_r(master, slave_path, slave_path_size)) != 0) {
    *failed_call = "ptsname_r";
  } else {
    int slave = open(slave_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave == -1) {
      *failed_call = "open";
      error = errno;
    } else {
      struct termios term;
      default_termios(&term);
      if (tcsetattr(slave, TCSANOW, &term) == -1) {
        *failed_call = "tcsetattr";
        error = errno;
      } else if (ioctl(slave, TIOCSWINSZ, size) == -1) {
        *failed_call = "ioctl(TIOCSWINSZ)";
        error = errno;
      }
      if (error != 0) {
        close(slave);
      } else {
        *slave_out = slave;
      }
    }
  }
  if (error != 0) {
    close(master);
    return error;
  }
  *master_out = master;
  return 0;
}

// What the child could not do before its exec, for the parent to report; the child shares the parent's memory.
// Volatile because the compiler does not know that vfork shares it: it would drop the child's stores as dead
// (the child exits right after) and fold the parent's reads to the initial values.
typedef struct {
  int error;
  const char *failed_call;
} child_failure;

// Every signal at its default action, through the system call: glibc's sigaction refuses its two internal
// signals (32 and 33), and a child must not inherit them ignored. All words zero is SIG_DFL, no flags and an
// empty mask in any field order; the size passed is one word of signal set, which holds where the kernel's
// sigset_t is 64 bits (x86-64, arm64 and most others, not MIPS), and four words cover the kernel's struct there.
void reset_signal_actions(void) {
  unsigned long default_action[4] = {0, 0, 0, 0};
  for (int signal_number = 1; signal_number < NSIG; signal_number++) {
    syscall(SYS_rt_sigaction, signal_number, default_action, NULL, sizeof(unsigned long));
  }
}

void set_signal_mask(const unsigned long *mask, unsigned long *previous) {
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, mask, previous, sizeof(unsigned long));
}

// The child's side, between vfork and exec: what login_tty(3) and node-pty's forkpty child do, in their order.
// Only system calls: the child borrows the parent's memory, so it must not allocate, lock or return.
static void run_child(const char *path, char *const *argv, char *const *shell_argv, char *const *envp,
                      const char *cwd, int slave, volatile child_failure *failure) {
  const unsigned long no_signals = 0;
  reset_signal_actions();
  if (setsid() == -1) {
    failure->failed_call = "setsid";
  } else if (ioctl(slave, TIOCSCTTY, 0) == -1) {
    failure->failed_call = "ioctl(TIOCSCTTY)";
  } else if (dup2(slave, 0) == -1 || dup2(slave, 1) == -1 || dup2(slave, 2) == -1) {
    failure->failed_call = "dup2";
  } else if (chdir(cwd) == -1) {
    failure->failed_call = "chdir";
  } else {
    set_signal_mask(&no_signals, NULL);
    execve(path, argv, envp);
    if (errno == ENOEXEC) {
      // execvp's rule, which node-pty's child follows: a file the kernel cannot execute is a shell script.
      execve("/bin/sh", shell_argv, envp);
    }
    failure->failed_call = "execve";
  }
  failure->error = errno;
  _exit(127);
}

// vfork rather than fork: the child borrows the parent's memory until it execs, so nothing is copied and the
// cost does not grow with the parent's size. Every signal stays blocked in the parent thread meanwhile, so no
// handler of the parent can run in the borrowed memory before the child has reset them.
static int spawn_in_pty(const char *path, char *const *argv, char *const *shell_argv, char *const *envp,
                        const char *cwd, int slave, pid_t *pid_out, const char **failed_call) {
  volatile child_failure failure = {0, NULL};
  const unsigned long all_signals = ~0UL;
  unsigned long previous_mask = 0;
  set_signal_mask(&all_signals, &previous_mask);
  pid_t pid = vfork();
  if (pid == 0) {
    run_child(path, argv, shell_argv, envp, cwd, slave, &failure);
  }
  int vfork_error = errno;
  set_signal_mask(&previous_mask, NULL);
  if (pid == -1) {
    *failed_call = "vfork";
    return vfork_error;
  }
  if (failure.failed_call != NULL) {
    waitpid(pid, NULL, 0);
    *failed_call = failure.failed_call;
    return failure.error;
  }
  *pid_out = pid;
  return 0;
}

// argv for the shell fallback, built before the vfork: /bin/sh, the script's path, then the arguments after
// argv[0]. The strings are shared with argv and path; only the vector is allocated.
static char **shell_arguments(const char *path, char **argv) {
  size_t count = 0;
  while (argv[count] != NULL) {
    count++;
  }
  char **shell_argv = calloc(count + 2, sizeof(char *));
  if (shell_argv != NULL) {
    shell_argv[0] = "/bin/sh";
    shell_argv[1] = (char *)path;
    for (size_t index = 1; index < count; index++) {
      shell_argv[index + 1] = argv[index];
    }
  }
  return shell_argv;
}

// Without a waiter the child could never be reaped: end it now rather than leave a zombie behind.
static void abandon_child(pid_t pid, int master, int slave) {
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  close(slave);
  close(master);
}

static napi_value spawn(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value args[7];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  if (argc != 7) {
    napi_throw_type_error(env, NULL, "usage: spawn(path, argv, envp, cwd, columns, rows, onExit)");
    return NULL;
  }
  int32_t columns, rows;
  if (napi_get_value_int32(env, args[4], &columns) != napi_ok || napi_get_value_int32(env, args[5], &rows) != napi_ok ||
      columns <= 0 || rows <= 0 || columns > 0xffff || rows > 0xffff) {
    napi_throw_range_error(env, NULL, "columns and rows must be integers from 1 to 65535");
    return NULL;
  }
  napi_value result = NULL;
  char *path = NULL, *cwd = NULL;
  char **argv = NULL, **envp = NULL;
  if ((path = copy_string(env, args[0])) == NULL || (argv = copy_string_array(env, args[1])) == NULL ||
      (envp = copy_string_array(env, args[2])) == NULL || (cwd = copy_string(env, args[3])) == NULL) {
    goto done;
  }
  if (argv[0] == NULL) {
    napi_throw_type_error(env, NULL, "argv must hold at least the program name");
    goto done;
  }
  struct winsize size = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)columns};
  char slave_path[128];
  const char *failed_call = NULL;
  int master = -1, slave = -1;
  int error = open_pty(&size, &master, &slave, slave_path, sizeof slave_path, &failed_call);
  if (error != 0) {
    throw_errno(env, failed_call, error);
    goto done;
  }
  pid_t pid = 0;
  char **shell_argv = shell_arguments(path, argv);
  if (shell_argv == NULL) {
    close(slave);
    close(master);
    napi_throw_error(env, NULL, "out of memory");
    goto done;
  }
  error = spawn_in_pty(path, argv, shell_argv, envp, cwd, slave, &pid, &failed_call);
  free(shell_argv);
  if (error != 0) {
    close(slave);
    close(master);
    throw_errno(env, failed_call, error);
    goto done;
  }
  exit_watch *watch = calloc(1, sizeof *watch);
  napi_value resource_name;
  pthread_t thread;
  pthread_attr_t thread_attributes;
  if (watch == NULL || napi_create_string_utf8(env, "rea-pty-exit", NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_create_threadsafe_function(env, args[6], NULL, resource_name, 0, 1, NULL, NULL, NULL, call_on_exit,
                                      &watch->on_exit) != napi_ok) {
    free(watch);
    abandon_child(pid, master, slave);
    napi_throw_error(env, NULL, "could not set up the exit watch for the PTY child");
    goto done;
  }
  watch->pid = pid;
  pthread_attr_init(&thread_attributes);
  pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&thread_attributes, 64 * 1024);
  error = pthread_create(&thread, &thread_attributes, wait_for_exit, watch);
  pthread_attr_destroy(&thread_attributes);
  if (error != 0) {
    napi_release_threadsafe_function(watch->on_exit, napi_tsfn_abort);
    free(watch);
    abandon_child(pid, master, slave);
    throw_errno(env, "pthread_create", error);
    goto done;
  }
  napi_value fd_value, slave_value, pid_value;
  if (napi_create_object(env, &result) != napi_ok || napi_create_int32(env, master, &fd_value) != napi_ok ||
      napi_create_int32(env, slave, &slave_value) != napi_ok || napi_create_int32(env, pid, &pid_value) != napi_ok ||
      napi_set_named_property(env, result, "fd", fd_value) != napi_ok ||
      napi_set_named_property(env, result, "slave", slave_value) != napi_ok ||
      napi_set_named_property(env, result, "pid", pid_value) != napi_ok) {
    // JavaScript will never hold these descriptors or this child: end the child (the exit watch reaps it) and
    // close both ends, instead of leaking them.
    kill(pid, SIGKILL);
    close(slave);
    close(master);
    result = NULL;
  }
done:
  free(path);
  free(cwd);
  free_strings(argv);
  free_strings(envp);
  return result;
}

static napi_value resize(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  int32_t fd, columns, rows;
  if (argc != 3 || napi_get_value_int32(env, args[0], &fd) != napi_ok ||
      napi_get_value_int32(env, args[1], &columns) != napi_ok || napi_get_value_int32(env, args[2], &rows) != napi_ok ||
      columns <= 0 || rows <= 0 || columns > 0xffff || rows > 0xffff) {
    napi_throw_type_error(env, NULL, "usage: resize(fd, columns, rows) with columns and rows from 1 to 65535");
    return NULL;
  }
  struct winsize size = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)columns};
  if (ioctl(fd, TIOCSWINSZ, &size) == -1) {
    return throw_errno(env, "ioctl(TIOCSWINSZ)", errno);
  }
  return NULL;
}

// localModes(fd): the terminal's ECHO and ICANON flags (tcgetattr), as { echo, canonical }. The recorder reads them
// before every keystroke it passes on; `stty` costs a fork and an exec of tens of milliseconds each time.
static napi_value local_modes(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  int32_t fd;
  if (argc != 1 || napi_get_value_int32(env, args[0], &fd) != napi_ok) {
    napi_throw_type_error(env, NULL, "usage: localModes(fd)");
    return NULL;
  }
  struct termios modes;
  if (tcgetattr(fd, &modes) == -1) {
    return throw_errno(env, "tcgetattr", errno);
  }
  napi_value result, echo, canonical;
  if (napi_create_object(env, &result) != napi_ok ||
      napi_get_boolean(env, (modes.c_lflag & ECHO) != 0, &echo) != napi_ok ||
      napi_get_boolean(env, (modes.c_lflag & ICANON) != 0, &canonical) != napi_ok ||
      napi_set_named_property(env, result, "echo", echo) != napi_ok ||
      napi_set_named_property(env, result, "canonical", canonical) != napi_ok) {
    return NULL;
  }
  return result;
}

// unreadInput(fd): how many bytes written to the PTY the program has not read yet (FIONREAD on the slave): input
// goes in only once the terminal's replies before it have been read.
static napi_value unread_input(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  int32_t fd;
  if (argc != 1 || napi_get_value_int32(env, args[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, NULL, "usage: unreadInput(fd) with a descriptor of the PTY's slave");
    return NULL;
  }
  int count = 0;
  if (ioctl(fd, FIONREAD, &count) == -1) {
    return throw_errno(env, "ioctl(FIONREAD)", errno);
  }
  napi_value result;
  CHECK(napi_create_int32(env, count, &result));
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"spawn", NULL, spawn, NULL, NULL, NULL, napi_enumerable, NULL},
      {"resize", NULL, resize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"localModes", NULL, local_modes, NULL, NULL, NULL, napi_enumerable, NULL},
      {"unreadInput", NULL, unread_input, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  CHECK(napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties));
  CHECK(define_master_reader(env, exports));
  CHECK(define_detached_spawn(env, exports));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
