// hotloop: a counting loop in a function called many times (port of hotloop.sl).
#include <stdio.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long work(long long n) {
  long long s = 0;
  for (long long i = 0; i < n; i++) s = s + (i * 7 - i / 3);
  return s;
}

static long long run(long long size) {
  long long c = 0;
  for (long long k = 0; k < size; k++) {
    long long n = 500 + k % 100;
    c = (c * 31 + work(n)) % 1000000007;
  }
  return c;
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
