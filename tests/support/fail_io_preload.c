// A library preloaded into the enygma program by io_failure_test (LD_PRELOAD, glibc, native
// release builds): the system calls named in FAIL_IO_CALLS (a comma-separated list of fsync,
// fdatasync, rename, fstat) fail with EIO, so that failures that no file system here makes on
// demand (a disk that fails a sync, a rename refused, a stat failing) reach the program's
// handling of them. fstat fails only for descriptors above standard error (a program's own
// checks of its standard streams are not what is tested). Calls not named pass through.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Whether FAIL_IO_CALLS names `call` (read on every call: nothing is cached or allocated).
static int failing(const char* call) {
  const char* list = getenv("FAIL_IO_CALLS");
  if (!list) return 0;
  const size_t n = strlen(call);
  for (const char* p = list; *p;) {
    const char* end = strchr(p, ',');
    const size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, call, n) == 0) return 1;
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int fsync(int fd) {
  if (failing("fsync")) {
    errno = EIO;
    return -1;
  }
  return NEXT(fsync)(fd);
}

int fdatasync(int fd) {
  if (failing("fdatasync")) {
    errno = EIO;
    return -1;
  }
  return NEXT(fdatasync)(fd);
}

int rename(const char* from, const char* to) {
  if (failing("rename")) {
    errno = EIO;
    return -1;
  }
  return NEXT(rename)(from, to);
}

int fstat(int fd, struct stat* st) {
  if (fd > 2 && failing("fstat")) {
    errno = EIO;
    return -1;
  }
  return NEXT(fstat)(fd, st);
}

int fstat64(int fd, struct stat64* st) {
  if (fd > 2 && failing("fstat")) {
    errno = EIO;
    return -1;
  }
  return NEXT(fstat64)(fd, st);
}
