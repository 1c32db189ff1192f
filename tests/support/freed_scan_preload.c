// A library preloaded into the enygma program by secrets_freed_test (LD_PRELOAD, glibc, native
// release builds): it replaces free() and realloc() so that every block the program frees is
// searched, before it goes back to malloc, for byte strings the test names (the forms of a
// request's private values). malloc hands freed blocks out again unwiped, so a secret found
// there is one the program dropped without wiping. Blocks that glibc returns to the kernel
// (mmap'ed chunks: unmapped on free) are not searched.
//
// Environment: ENYGMA_FREED_SCAN_NEEDLES, a file of "label<TAB>hex bytes" lines (each 4 bytes
// or more); ENYGMA_FREED_SCAN_REPORT, a file that gets a line for each needle found in a block
// ("found <label> in a freed block of <n> bytes", at most 64 a block) and, at exit, "scanned
// <blocks> blocks, <bytes> bytes". Nothing here allocates: the hooks run inside free().
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// glibc's own allocator entry points (exported by every glibc this project builds on).
extern void __libc_free(void* p);
extern void* __libc_malloc(size_t n);

enum { kMaxNeedles = 1 << 16, kMaxBytes = 1 << 22, kBuckets = 1 << 20 };

struct Needle {
  uint32_t offset, length;              // in g_bytes
  uint32_t label_offset, label_length;  // in g_labels
};

static unsigned char g_bytes[kMaxBytes];
static char g_labels[kMaxBytes];
static struct Needle g_needles[kMaxNeedles];
// Needles sorted by bucket (a hash of their first four bytes): bucket b's are
// g_order[g_first[b] .. g_first[b + 1]).
static uint32_t g_first[kBuckets + 1];
static uint32_t g_order[kMaxNeedles];
static uint32_t g_count;
static int g_report = -1;
static atomic_int g_ready;
static atomic_ulong g_blocks, g_scanned_bytes;

static uint32_t bucket_of(const unsigned char* p) {
  uint32_t x;
  memcpy(&x, p, 4);
  return (x * 2654435761u) >> 12;
}

static void write_all(int fd, const char* text, size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, text, n);
    if (w <= 0) return;
    text += w;
    n -= (size_t)w;
  }
}

static size_t put_number(char* out, unsigned long v) {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  return n;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the needles file (through a fixed buffer: no allocation).
static void load_needles(const char* path) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  static char text[16 << 20];
  size_t n = 0;
  for (ssize_t r; n < sizeof text && (r = read(fd, text + n, sizeof text - n)) > 0;) n += (size_t)r;
  close(fd);
  size_t used_bytes = 0, used_labels = 0;
  static uint32_t bucket[kMaxNeedles];
  for (size_t at = 0; at < n && g_count < kMaxNeedles;) {
    size_t end = at;
    while (end < n && text[end] != '\n') ++end;
    size_t tab = at;
    while (tab < end && text[tab] != '\t') ++tab;
    const size_t label_length = tab - at, hex_length = end > tab ? end - tab - 1 : 0;
    if (tab < end && hex_length >= 8 && hex_length % 2 == 0 &&
        used_bytes + hex_length / 2 <= kMaxBytes && used_labels + label_length <= kMaxBytes) {
      struct Needle* needle = &g_needles[g_count];
      needle->offset = (uint32_t)used_bytes;
      needle->length = (uint32_t)(hex_length / 2);
      int ok = 1;
      for (size_t i = 0; i < hex_length / 2; ++i) {
        const int hi = hex_value(text[tab + 1 + 2 * i]), lo = hex_value(text[tab + 2 + 2 * i]);
        if (hi < 0 || lo < 0) ok = 0;
        g_bytes[used_bytes + i] = (unsigned char)(hi * 16 + lo);
      }
      if (ok) {
        memcpy(g_labels + used_labels, text + at, label_length);
        needle->label_offset = (uint32_t)used_labels;
        needle->label_length = (uint32_t)label_length;
        bucket[g_count] = bucket_of(g_bytes + used_bytes);
        used_bytes += needle->length;
        used_labels += label_length;
        ++g_count;
      }
    }
    at = end + 1;
  }
  // Counting sort by bucket.
  for (uint32_t i = 0; i < g_count; ++i) ++g_first[bucket[i] + 1];
  for (uint32_t b = 0; b < kBuckets; ++b) g_first[b + 1] += g_first[b];
  static uint32_t next[kBuckets];
  for (uint32_t i = 0; i < g_count; ++i) g_order[g_first[bucket[i]] + next[bucket[i]]++] = i;
}

__attribute__((constructor)) static void freed_scan_start(void) {
  const char* needles = getenv("ENYGMA_FREED_SCAN_NEEDLES");
  const char* report = getenv("ENYGMA_FREED_SCAN_REPORT");
  if (!needles || !report) return;
  g_report = open(report, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (g_report < 0) return;
  load_needles(needles);
  atomic_store(&g_ready, 1);
}

__attribute__((destructor)) static void freed_scan_end(void) {
  if (!atomic_load(&g_ready)) return;
  char line[96];
  size_t n = 0;
  memcpy(line, "scanned ", 8);
  n = 8;
  n += put_number(line + n, atomic_load(&g_blocks));
  memcpy(line + n, " blocks, ", 9);
  n += 9;
  n += put_number(line + n, atomic_load(&g_scanned_bytes));
  memcpy(line + n, " bytes\n", 7);
  n += 7;
  write_all(g_report, line, n);
}

static void report_found(const struct Needle* needle, size_t block_size) {
  char line[512];
  size_t n = 0;
  memcpy(line, "found ", 6);
  n = 6;
  size_t label = needle->label_length;
  if (label > 300) label = 300;
  memcpy(line + n, g_labels + needle->label_offset, label);
  n += label;
  memcpy(line + n, " in a freed block of ", 21);
  n += 21;
  n += put_number(line + n, block_size);
  memcpy(line + n, " bytes\n", 7);
  n += 7;
  write_all(g_report, line, n);
}

// Searches a block about to be freed; reports each needle found in it (at most 64 per block).
static void scan(const unsigned char* p, size_t size) {
  atomic_fetch_add(&g_blocks, 1);
  atomic_fetch_add(&g_scanned_bytes, size);
  if (size < 4) return;
  int reported = 0;
  for (size_t i = 0; i + 4 <= size; ++i) {
    const uint32_t b = bucket_of(p + i);
    for (uint32_t k = g_first[b]; k < g_first[b + 1]; ++k) {
      const struct Needle* needle = &g_needles[g_order[k]];
      if (needle->length <= size - i && memcmp(p + i, g_bytes + needle->offset, needle->length) == 0) {
        report_found(needle, size);
        if (++reported == 64) return;
      }
    }
  }
}

// glibc's chunk header: the size word before the block, bit 1 set for an mmap'ed chunk.
static int is_mmapped(const void* p) {
  size_t word;
  memcpy(&word, (const char*)p - sizeof word, sizeof word);
  return (word & 2) != 0;
}

void free(void* p) {
  if (!p) return;
  if (atomic_load_explicit(&g_ready, memory_order_relaxed) && !is_mmapped(p)) {
    scan((const unsigned char*)p, malloc_usable_size(p));
  }
  __libc_free(p);
}

// realloc as malloc, copy and free, so that the old block is searched like any freed one.
void* realloc(void* p, size_t n) {
  if (!p) return __libc_malloc(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  void* q = __libc_malloc(n);
  if (!q) return NULL;
  const size_t old = malloc_usable_size(p);
  memcpy(q, p, old < n ? old : n);
  free(p);
  return q;
}
