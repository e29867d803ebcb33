// strings: string building by concatenation in a loop (port of strings.sl).
// build() appends to a growable buffer (amortized doubling), the natural C
// form of `s = s + i + ","`; buildRange() concatenates into fresh strings.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIZE 50  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static char* build(long long n) {
  size_t capacity = 16, length = 0;
  char* s = malloc(capacity);
  s[0] = '\0';
  for (long long i = 0; i < n; i++) {
    char piece[32];
    int pl = sprintf(piece, "%lld,", i);
    if (length + pl + 1 > capacity) {
      while (length + pl + 1 > capacity) capacity *= 2;
      s = realloc(s, capacity);
    }
    memcpy(s + length, piece, pl + 1);
    length += pl;
  }
  return s;
}

static char* buildRange(long long lo, long long hi) {
  if (hi - lo == 1) {
    char* s = malloc(32);
    sprintf(s, "%lld,", lo);
    return s;
  }
  long long mid = (lo + hi) / 2;
  char* left = buildRange(lo, mid);
  char* right = buildRange(mid, hi);
  size_t ll = strlen(left), rl = strlen(right);
  char* s = malloc(ll + rl + 1);
  memcpy(s, left, ll);
  memcpy(s + ll, right, rl + 1);
  free(left);
  free(right);
  return s;
}

static long long run(long long size) {
  char* reference = buildRange(0, size);
  long long matches = 0;
  for (int round = 0; round < 10; round++) {
    char* s = build(size);
    if (strcmp(s, reference) == 0) matches++;
    free(s);
  }
  free(reference);
  long long literal = 0;
  char* s = build(12);
  if (strcmp(s, "0,1,2,3,4,5,6,7,8,9,10,11,") == 0) literal = 1;
  free(s);
  return size * 10000 + matches * 10 + literal;
}

static volatile long long size_input = SIZE;  // opaque to the optimizer

int main(void) {
  long long size = size_input;
  long long result = 0;
  for (int i = 0; i < ITERATIONS; i++) {
    long long start = now_ns();
    result = run(size);
    printf("iteration %d %lld\n", i, now_ns() - start);
  }
  printf("checksum %lld\n", result);
  return 0;
}
