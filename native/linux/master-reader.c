// Reads a PTY master in a thread of its own and hands the bytes to JavaScript in batches, for REA's Linux backend.
//
// Why not a tty.ReadStream (what node-pty uses): the kernel hands a PTY's output over a few kilobytes per read, and
// each read on the event loop costs a wake-up, a fresh 64 KiB allocation and a JavaScript callback. Under a flood
// the loop spends more time on that than on the bytes. Here a thread reads as fast as the kernel gives, as
// script(1) does, and the event loop takes everything read so far in one call, at most BATCH_BYTES at a time: a
// chunk is never larger than one a ReadStream could deliver.
//
// Flow control is the kernel's: when JavaScript pauses the reader, or has not yet taken a full batch, the thread
// stops reading, the master's queue fills, and the program's writes block, as they would with a paused stream.
//
// Exports (see native-pty-backend.ts):
//   readMaster(fd, onData, onEnd) -> handle
//     onData(buffer) is called from the event loop with every byte read, in order; onEnd(errno) once after the
//     last byte: 0 at end of file, EIO once every descriptor on the slave is closed, another errno otherwise.
//     A batch of plain text (no ESC byte, and a last byte that ends a character) is first offered as its length
//     alone, onData(length): when that call returns true, JavaScript has counted the batch and it is not handed
//     over. Past the output budget a flood is counted, not kept, and then costs the event loop no buffer.
//   pauseReading(handle), resumeReading(handle)
//   stopReading(handle) -> buffer or undefined
//     Stops the thread, closes the master and returns what was read and not yet handed over. No callback runs
//     after it. It must be called once for every handle, after the end as well: the handle keeps the event
//     loop alive until then, as an open stream does.
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "rea-native.h"

// The largest chunk handed over: libuv's read size for a stream, so chunks keep the size they had.
#define BATCH_BYTES (64 * 1024)
// One read: a PTY master never returns more than its 4 KiB line buffer, so this is never the limit.
#define READ_BYTES (8 * 1024)
// How long bytes may wait for more while output is flowing, and what counts as flowing: a delivery queued in the
// last FLOWING_NS. The kernel refills the master's 4 KiB every few tens of microseconds under a flood, so a
// flood fills the batch; output after a quiet moment is handed over at once.
#define HOLD_NS 500000
#define FLOWING_NS 2000000

typedef struct {
  int master;
  int wake;  // an eventfd: stopReading writes it to take the thread out of poll()
  pthread_t thread;
  bool thread_started;
  napi_threadsafe_function deliver;  // calls onData; its context is this reader
  napi_ref on_end;

  // Shared with the thread, under the lock.
  pthread_mutex_t lock;
  pthread_cond_t changed;
  // Two batches: the thread fills one while the event loop copies the other out, so the copy holds no lock.
  unsigned char batches[2][BATCH_BYTES];
  int filling;
  size_t batch_length;  // of batches[filling]
  bool delivery_queued;  // a call of `deliver` is queued and has not run yet
  int64_t last_queued;   // when, on CLOCK_MONOTONIC
  bool paused;
  bool stopping;
  bool ended;
  int end_error;

  // Event loop only.
  bool end_reported;
  bool stopped;
  int owners;  // see let_go
} master_reader;

static int64_t now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

// Under the lock: makes sure one delivery is queued. One queued call takes everything read until it runs, so the
// event loop is called once per turn, however many reads happened meanwhile.
static void queue_delivery(master_reader *reader) {
  if (reader->delivery_queued) {
    return;
  }
  if (napi_call_threadsafe_function(reader->deliver, NULL, napi_tsfn_nonblocking) == napi_ok) {
    reader->delivery_queued = true;
    reader->last_queued = now_ns();
  } else {
    // The environment is going away (napi_closing): nobody is left to read for.
    reader->stopping = true;
  }
}

// Sleeps until the master has bytes or hangs up, or stopReading wakes the thread. Bytes not yet queued for the
// event loop are queued first, unless output has been flowing: then they wait up to HOLD_NS for more, so that a
// flood reaches the event loop in full batches, and the first bytes after a quiet moment (a prompt, an echo) are
// not delayed at all.
static void wait_for_input(master_reader *reader, struct pollfd *watched, int64_t held_since) {
  struct timespec hold;
  bool holding = false;
  pthread_mutex_lock(&reader->lock);
  if (reader->batch_length > 0 && !reader->delivery_queued) {
    int64_t now = now_ns();
    int64_t left = held_since + HOLD_NS - now;
    if (left > 0 && now - reader->last_queued < FLOWING_NS) {
      holding = true;
      hold.tv_sec = left / 1000000000;
      hold.tv_nsec = left % 1000000000;
    } else {
      queue_delivery(reader);
    }
  }
  pthread_mutex_unlock(&reader->lock);
  int ready;
  do {
    ready = ppoll(watched, 2, holding ? &hold : NULL, NULL);
  } while (ready == -1 && errno == EINTR);
}

static void *read_master(void *argument) {
  master_reader *reader = argument;
  pthread_setname_np(pthread_self(), "rea-pty-read");  // as ps and perf show it
  unsigned char buffer[READ_BYTES];
  struct pollfd watched[2] = {{.fd = reader->master, .events = POLLIN}, {.fd = reader->wake, .events = POLLIN}};
  int64_t held_since = 0;  // when the first byte not yet queued for delivery was read
  for (;;) {
    pthread_mutex_lock(&reader->lock);
    // Room for a whole read, so that nothing read ever waits outside the batch.
    while (!reader->stopping && (reader->paused || BATCH_BYTES - reader->batch_length < READ_BYTES)) {
      pthread_cond_wait(&reader->changed, &reader->lock);
    }
    bool stopping = reader->stopping;
    pthread_mutex_unlock(&reader->lock);
    if (stopping) {
      return NULL;
    }
    ssize_t count = read(reader->master, buffer, sizeof buffer);
    if (count > 0) {
      pthread_mutex_lock(&reader->lock);
      memcpy(reader->batches[reader->filling] + reader->batch_length, buffer, (size_t)count);
      reader->batch_length += (size_t)count;
      if (!reader->delivery_queued) {
        if (reader->batch_length == (size_t)count) {
          held_since = now_ns();
        }
        if (BATCH_BYTES - reader->batch_length < READ_BYTES) {
          queue_delivery(reader);
        }
      }
      pthread_mutex_unlock(&reader->lock);
      if (count == (ssize_t)sizeof buffer) {
        continue;  // more may be waiting
      }
      // A short read took all there was. Reading again now would not just fail with EAGAIN: the kernel first
      // waits for its pending copy into the master's buffer, so poll first, as script(1) and libuv do.
    } else if (count == -1 && errno == EINTR) {
      continue;
    } else if (count == 0 || errno != EAGAIN) {
      pthread_mutex_lock(&reader->lock);
      reader->ended = true;
      reader->end_error = count == 0 ? 0 : errno;
      queue_delivery(reader);
      pthread_mutex_unlock(&reader->lock);
      return NULL;
    }
    wait_for_input(reader, watched, held_since);
  }
}

// Text that cannot hold an escape sequence or the drain marker, and ends on a whole character, so JavaScript may
// take it as a byte count alone.
static bool is_plain(const unsigned char *bytes, size_t length) {
  return length > 0 && bytes[length - 1] < 0x80 && memchr(bytes, 0x1b, length) == NULL;
}

// Offers a plain batch to onData as its length; true when JavaScript counted it.
static bool counted_by(napi_env env, napi_value global, napi_value on_data, size_t length) {
  napi_value offered, verdict;
  bool counted = false;
  if (napi_create_double(env, (double)length, &offered) != napi_ok ||
      napi_call_function(env, global, on_data, 1, &offered, &verdict) != napi_ok ||
      napi_get_value_bool(env, verdict, &counted) != napi_ok) {
    return false;
  }
  return counted;
}

// Runs on the event loop: hands over the batch, then reports the end once the last byte was handed over.
static void deliver(napi_env env, napi_value on_data, void *context, void *data) {
  (void)data;
  master_reader *reader = context;
  if (env == NULL || reader->stopped) {
    return;
  }
  const unsigned char *handed = NULL;
  size_t handed_length = 0;
  bool report_end = false;
  pthread_mutex_lock(&reader->lock);
  reader->delivery_queued = false;
  if (!reader->paused) {
    if (reader->batch_length > 0) {
      handed = reader->batches[reader->filling];
      handed_length = reader->batch_length;
      reader->filling = 1 - reader->filling;
      reader->batch_length = 0;
      pthread_cond_signal(&reader->changed);
    }
    report_end = reader->ended && !reader->end_reported;
    reader->end_reported = reader->end_reported || report_end;
  }
  int end_error = reader->end_error;
  pthread_mutex_unlock(&reader->lock);
  napi_value global;
  if (napi_get_global(env, &global) != napi_ok) {
    return;
  }
  // The thread does not touch the handed batch until the next delivery, which runs after this one.
  if (handed_length > 0 && is_plain(handed, handed_length) && counted_by(env, global, on_data, handed_length)) {
    handed_length = 0;
  }
  napi_value chunk = NULL;
  void *copy;
  // The count may have stopped the reader; then the batch goes nowhere, as with any delivery after a stop.
  if (handed_length > 0 && !reader->stopped &&
      napi_create_buffer_copy(env, handed_length, handed, &copy, &chunk) == napi_ok) {
    napi_call_function(env, global, on_data, 1, &chunk, NULL);
  }
  napi_value on_end, error_number;
  // onData may have stopped the reader; then nothing more is reported.
  if (report_end && !reader->stopped && napi_get_reference_value(env, reader->on_end, &on_end) == napi_ok &&
      napi_create_int32(env, end_error, &error_number) == napi_ok) {
    napi_call_function(env, global, on_end, 1, &error_number, NULL);
  }
}

static void stop_thread(master_reader *reader) {
  if (!reader->thread_started) {
    return;
  }
  pthread_mutex_lock(&reader->lock);
  reader->stopping = true;
  pthread_cond_signal(&reader->changed);
  pthread_mutex_unlock(&reader->lock);
  uint64_t one = 1;
  while (write(reader->wake, &one, sizeof one) == -1 && errno == EINTR) {
  }
  pthread_join(reader->thread, NULL);
  reader->thread_started = false;
}

static void release_descriptors(master_reader *reader) {
  if (reader->master != -1) {
    close(reader->master);
    reader->master = -1;
  }
  if (reader->wake != -1) {
    close(reader->wake);
    reader->wake = -1;
  }
}

// The reader's memory has two owners, both on the event loop: the threadsafe function (its last queued delivery
// may run after stopReading) and the handle JavaScript holds (which may be passed again after stopReading, and
// must then find `stopped` rather than freed memory). The last of them to let go frees it.
static void let_go(master_reader *reader) {
  if (--reader->owners > 0) {
    return;
  }
  pthread_cond_destroy(&reader->changed);
  pthread_mutex_destroy(&reader->lock);
  free(reader);
}

// After the last queued delivery ran and the threadsafe function was released (by stopReading, or by Node when
// the environment ends without one).
static void finalize_reader(napi_env env, void *data, void *hint) {
  (void)hint;
  master_reader *reader = data;
  reader->stopped = true;
  stop_thread(reader);
  release_descriptors(reader);
  if (reader->on_end != NULL) {
    napi_delete_reference(env, reader->on_end);
    reader->on_end = NULL;
  }
  let_go(reader);
}

// When the garbage collector took JavaScript's handle.
static void finalize_handle(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  let_go(data);
}

static master_reader *reader_of(napi_env env, napi_callback_info info, napi_value *rest, size_t rest_count) {
  size_t argc = 1 + rest_count;
  napi_value args[4];
  void *reader = NULL;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc != 1 + rest_count ||
      napi_get_value_external(env, args[0], &reader) != napi_ok || reader == NULL) {
    napi_throw_type_error(env, NULL, "expected a handle from readMaster");
    return NULL;
  }
  for (size_t index = 0; index < rest_count; index++) {
    rest[index] = args[index + 1];
  }
  return reader;
}

static napi_value read_master_js(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  int32_t fd;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc != 3 ||
      napi_get_value_int32(env, args[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, NULL, "usage: readMaster(fd, onData, onEnd)");
    return NULL;
  }
  master_reader *reader = calloc(1, sizeof *reader);
  if (reader == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  reader->master = -1;
  reader->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (reader->wake == -1) {
    int error = errno;
    free(reader);
    return throw_errno(env, "eventfd", error);
  }
  pthread_mutex_init(&reader->lock, NULL);
  pthread_cond_init(&reader->changed, NULL);
  napi_value resource_name, handle;
  if (napi_create_reference(env, args[2], 1, &reader->on_end) != napi_ok ||
      napi_create_string_utf8(env, "rea-pty-read", NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_create_threadsafe_function(env, args[1], NULL, resource_name, 0, 1, reader, finalize_reader, reader,
                                      deliver, &reader->deliver) != napi_ok) {
    // Nothing owns the reader yet: undo by hand (the master stays the caller's).
    if (reader->on_end != NULL) {
      napi_delete_reference(env, reader->on_end);
    }
    close(reader->wake);
    pthread_cond_destroy(&reader->changed);
    pthread_mutex_destroy(&reader->lock);
    free(reader);
    napi_throw_error(env, NULL, "could not set up the PTY reader");
    return NULL;
  }
  // From here the threadsafe function owns the reader; releasing it frees the reader.
  reader->owners = 1;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  // The thread's frame holds one read buffer.
  pthread_attr_setstacksize(&attributes, READ_BYTES + 64 * 1024);
  reader->master = fd;
  int error = pthread_create(&reader->thread, &attributes, read_master, reader);
  pthread_attr_destroy(&attributes);
  if (error != 0) {
    reader->master = -1;  // the caller still owns the master when the reader could not start
    napi_release_threadsafe_function(reader->deliver, napi_tsfn_abort);
    return throw_errno(env, "pthread_create", error);
  }
  reader->thread_started = true;
  reader->owners = 2;
  if (napi_create_external(env, reader, finalize_handle, NULL, &handle) != napi_ok) {
    reader->owners = 1;  // the handle never came to be
    // JavaScript could never stop this reader: stop it now and leave the master to the caller.
    reader->stopped = true;
    stop_thread(reader);
    reader->master = -1;
    napi_release_threadsafe_function(reader->deliver, napi_tsfn_abort);
    return NULL;
  }
  return handle;
}

static napi_value pause_reading(napi_env env, napi_callback_info info) {
  master_reader *reader = reader_of(env, info, NULL, 0);
  if (reader != NULL && !reader->stopped) {
    pthread_mutex_lock(&reader->lock);
    reader->paused = true;
    pthread_mutex_unlock(&reader->lock);
  }
  return NULL;
}

static napi_value resume_reading(napi_env env, napi_callback_info info) {
  master_reader *reader = reader_of(env, info, NULL, 0);
  if (reader != NULL && !reader->stopped) {
    pthread_mutex_lock(&reader->lock);
    if (reader->paused) {
      reader->paused = false;
      pthread_cond_signal(&reader->changed);
      // What was read before the pause, or the end, waits for a delivery.
      if (reader->batch_length > 0 || (reader->ended && !reader->end_reported)) {
        queue_delivery(reader);
      }
    }
    pthread_mutex_unlock(&reader->lock);
  }
  return NULL;
}

static napi_value stop_reading(napi_env env, napi_callback_info info) {
  master_reader *reader = reader_of(env, info, NULL, 0);
  if (reader == NULL || reader->stopped) {
    return NULL;
  }
  reader->stopped = true;
  stop_thread(reader);
  // The thread is gone: the batch is this thread's alone now, and the master can be closed without racing a read.
  napi_value rest = NULL;
  if (reader->batch_length > 0) {
    void *copy;
    if (napi_create_buffer_copy(env, reader->batch_length, reader->batches[reader->filling], &copy, &rest) !=
        napi_ok) {
      rest = NULL;
    }
    reader->batch_length = 0;
  }
  release_descriptors(reader);
  napi_release_threadsafe_function(reader->deliver, napi_tsfn_release);
  return rest;
}

napi_status define_master_reader(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"readMaster", NULL, read_master_js, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pauseReading", NULL, pause_reading, NULL, NULL, NULL, napi_enumerable, NULL},
      {"resumeReading", NULL, resume_reading, NULL, NULL, NULL, napi_enumerable, NULL},
      {"stopReading", NULL, stop_reading, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  return napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
