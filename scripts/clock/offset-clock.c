// A wall clock moved by a fixed offset, for `npm run test:clock`: preloaded (LD_PRELOAD) into
// every process of a test run (node, workerd, Chromium, Radicale), so that all of them, the
// Worker's Date and D1's 'now' included, agree on one other instant while time still runs.
//
// Why not libfaketime: it also wraps poll(), and resolves its wrappers lazily with dlsym. In
// workerd, tcmalloc's first allocation polls while reading the CPU count; the wrapper's dlsym
// allocates, and tcmalloc waits on its own init lock for ever (seen with gdb: workerd --version
// hangs). This shim wraps only the three wall-clock reads, and never allocates in them.
//
// TEST_CLOCK_OFFSET_SECONDS: seconds added to CLOCK_REALTIME (may be negative). Monotonic
// clocks are untouched, so timers and timeouts run as before.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long offset;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

__attribute__((constructor)) static void init(void) {
  const char *s = getenv("TEST_CLOCK_OFFSET_SECONDS");
  if (s) offset = strtoll(s, NULL, 10);
  real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
}

static int wall(clockid_t id) {
  return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  // before init (another library's constructor), the system call itself: no lookup, no malloc
  int rc = real_clock_gettime ? real_clock_gettime(id, ts) : syscall(SYS_clock_gettime, id, ts);
  if (rc == 0 && wall(id)) ts->tv_sec += offset;
  return rc;
}

int gettimeofday(struct timeval *tv, void *tz) {
  struct timespec ts;
  int rc = clock_gettime(CLOCK_REALTIME, &ts);
  if (rc == 0 && tv) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  if (tz) syscall(SYS_gettimeofday, NULL, tz);
  return rc;
}

time_t time(time_t *t) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (t) *t = ts.tv_sec;
  return ts.tv_sec;
}
