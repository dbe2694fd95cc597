/* What the fake cuBLASLt and cuDNN (fake_cublaslt.c, fake_cudnn.c) share: the fake driver they run their work
 * on (the one MIE_CUDA_DRIVER names, as the runtime loads it), a log of the calls the tests read, and the
 * closures of queued work (kept until the library is unloaded: a captured graph runs them again). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int (*fake_enqueue_fn)(void *stream, void (*fn)(void *), void *arg);
typedef int (*fake_on_device_fn)(unsigned long long p, size_t n);

static fake_enqueue_fn fake_enqueue;
static fake_on_device_fn fake_on_device;

/* 1 when the fake driver is loaded (the library cannot work without a driver, as the real ones). */
static int find_driver(void) {
  if (fake_enqueue) return 1;
  const char *path = getenv("MIE_CUDA_DRIVER");
  if (!path || !path[0]) return 0;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) return 0;
  fake_enqueue = (fake_enqueue_fn)dlsym(h, "mie_fake_cuda_enqueue");
  fake_on_device = (fake_on_device_fn)dlsym(h, "mie_fake_cuda_on_device");
  return fake_enqueue && fake_on_device;
}

static int on_device(const void *p, size_t n) { return fake_on_device((unsigned long long)(uintptr_t)p, n); }

/* The call log: one line per call the tests look at. */
static char log_text[1 << 16];
static size_t log_used;
static void log_line(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vsnprintf(log_text + log_used, sizeof log_text - log_used, format, ap);
  va_end(ap);
  if (n > 0 && log_used + (size_t)n + 1 < sizeof log_text) {
    log_used += (size_t)n;
    log_text[log_used++] = '\n';
    log_text[log_used] = 0;
  }
}
EXPORT const char *mie_fake_library_log(void) { return log_text; }
EXPORT void mie_fake_library_log_clear(void) {
  log_used = 0;
  log_text[0] = 0;
}

struct closure {
  struct closure *next;
};
static struct closure *closures;
/* Allocates `bytes` (a struct that starts with struct closure) owned until unload. */
static void *new_closure(size_t bytes) {
  struct closure *c = calloc(1, bytes);
  if (!c) return NULL;
  c->next = closures;
  closures = c;
  return c;
}
__attribute__((destructor)) static void free_closures(void) {
  while (closures) {
    struct closure *next = closures->next;
    free(closures);
    closures = next;
  }
}
