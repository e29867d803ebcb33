// fields: object field access in a hot function (port of fields.sl). The
// objects are heap-allocated structs reached through pointers.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Point {
  long long x, y, dx, dy;
} Point;

static Point* makePoint(long long x, long long y, long long dx, long long dy) {
  Point* p = malloc(sizeof(Point));
  p->x = x;
  p->y = y;
  p->dx = dx;
  p->dy = dy;
  return p;
}

static long long step(Point* p) {
  p->x = p->x + p->dx;
  if (p->x >= 1000) p->x = p->x - 1000;
  p->y = p->y + p->dy;
  if (p->y >= 1000) p->y = p->y - 1000;
  return p->x * 3 + p->y;
}

static long long run(long long size) {
  Point* a = makePoint(1, 2, 3, 5);
  Point* b = makePoint(10, 20, 7, 11);
  Point* c = makePoint(100, 200, 13, 17);
  long long sum = 0;
  for (long long i = 0; i < size; i++) sum = sum + step(a) + step(b) + step(c);
  free(a);
  free(b);
  free(c);
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
