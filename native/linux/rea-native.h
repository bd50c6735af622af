// What the two source files of rea_pty.node share.
#ifndef REA_NATIVE_H
#define REA_NATIVE_H

#include <node_api.h>

// Throws an Error whose message names the system call, with `errno` and `syscall` set as Node's own errors have
// them; returns NULL for the caller to return.
napi_value throw_errno(napi_env env, const char *syscall, int error);

// String arguments copied into malloc'd memory (pty-spawn.c); NULL with a pending JS exception when one is not a
// string. An array becomes a NULL-terminated vector, the shape execve takes; free_strings frees it.
char *copy_string(napi_env env, napi_value value);
char **copy_string_array(napi_env env, napi_value array);
void free_strings(char **strings);

// For a child between vfork and exec (pty-spawn.c): every signal back to its default action, and the signal mask
// set through the system call. Both are plain system calls, safe in a child that borrows its parent's memory.
void reset_signal_actions(void);
void set_signal_mask(const unsigned long *mask, unsigned long *previous);

// Adds spawnDetached (detached-spawn.c) to the exports.
napi_status define_detached_spawn(napi_env env, napi_value exports);

// Adds readMaster, pauseReading, resumeReading and stopReading (master-reader.c) to the exports.
napi_status define_master_reader(napi_env env, napi_value exports);

#endif
