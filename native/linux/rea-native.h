// What the two source files of rea_pty.node share.
#ifndef REA_NATIVE_H
#define REA_NATIVE_H

#include <node_api.h>

// Throws an Error whose message names the system call, with `errno` and `syscall` set as Node's own errors have
// them; returns NULL for the caller to return.
napi_value throw_errno(napi_env env, const char *syscall, int error);

// Adds readMaster, pauseReading, resumeReading and stopReading (master-reader.c) to the exports.
napi_status define_master_reader(napi_env env, napi_value exports);

#endif
