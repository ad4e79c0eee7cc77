/* Syscall faults for the CLI tests, loaded with LD_PRELOAD: each is off unless its variable is set.
 *   FAULT_FSYNC_DIR=1          fsync() of a directory fails with EIO
 *   FAULT_LINK=1               link() fails with EPERM (a file system without hard links)
 *   FAULT_RENAME_TARGET=<end>  rename() to a path ending in <end> fails with EIO
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *end) {
  size_t n = strlen(s), m = strlen(end);
  return m > 0 && n >= m && strcmp(s + n - m, end) == 0;
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  struct stat st;
  if (getenv("FAULT_FSYNC_DIR") && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EIO;
    return -1;
  }
  return real(fd);
}

int link(const char *from, const char *to) {
  static int (*real)(const char *, const char *);
  if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "link");
  if (getenv("FAULT_LINK")) {
    errno = EPERM;
    return -1;
  }
  return real(from, to);
}

int rename(const char *from, const char *to) {
  static int (*real)(const char *, const char *);
  if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
  const char *end = getenv("FAULT_RENAME_TARGET");
  if (end && ends_with(to, end)) {
    errno = EIO;
    return -1;
  }
  return real(from, to);
}
