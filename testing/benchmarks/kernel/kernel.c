// kernel: Collatz step counts over 1..size in a hot function (port of kernel.sl).
#include <stdio.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long collatz(long long n) {
  long long steps = 0;
  while (n > 1) {
    if (n % 2 == 0) {
      n = n / 2;
    } else {
      n = 3 * n + 1;
    }
    steps = steps + 1;
  }
  return steps;
}

static long long run(long long size) {
  long long sum = 0;
  for (long long n = 1; n <= size; n++) sum = sum + collatz(n);
  return sum;
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
