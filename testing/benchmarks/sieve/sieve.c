// sieve: the sieve of Eratosthenes over 2..1000, run `size` times (port of
// sieve.sl), with a heap-allocated array of flags.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 2  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long sieve(long long limit) {
  char* flags = malloc(limit + 1);
  for (long long i = 2; i <= limit; i++) flags[i] = 1;
  long long sum = 0;
  for (long long i = 2; i <= limit; i++) {
    if (flags[i]) {
      sum = sum + i;
      for (long long k = i + i; k <= limit; k += i) flags[k] = 0;
    }
  }
  free(flags);
  return sum;
}

static long long run(long long size) {
  long long total = 0;
  for (long long r = 0; r < size; r++) total = total + sieve(1000);
  return total;
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
