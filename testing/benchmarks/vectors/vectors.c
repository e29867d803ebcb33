// vectors: records' computation with the step written in the loop
// (port of vectors.sl). As a C programmer writes it: the vectors are structs
// passed and returned by value (no malloc), so gcc keeps them in registers;
// this is the target that scalar replacement aims at.
#include <stdio.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Vec {
  long long x, y, z;
} Vec;

static Vec vec(long long x, long long y, long long z) {
  Vec v = {x, y, z};
  return v;
}

static Vec add(Vec a, Vec b) { return vec(a.x + b.x, a.y + b.y, a.z + b.z); }

static Vec scale(Vec a, long long k) { return vec(a.x * k, a.y * k, a.z * k); }

static Vec cross(Vec a, Vec b) {
  return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static long long dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static long long run(long long size) {
  long long sum = 0;
  long long k = 0;
  for (long long i = 0; i < size; i++) {
    Vec a = vec(k, k + 1, k + 2);
    Vec b = vec(3, k, 1);
    Vec c = add(scale(a, 2), cross(a, b));
    sum = sum + dot(c, b);
    k = k + 1;
    if (k == 100) k = 0;
  }
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
