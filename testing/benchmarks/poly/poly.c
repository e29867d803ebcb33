// poly: one polymorphic callee called with numbers and strings (port of
// poly.sl). Values are tagged unions; add() implements SL's `+` (numeric
// addition, or concatenation into a fresh heap string).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIZE 1000  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Value {
  enum { NUMBER, STRING } tag;
  long long number;
  char* string;  // owned when tag == STRING and the value came from add()
} Value;

static Value num(long long n) { Value v = {NUMBER, n, NULL}; return v; }
static Value str(const char* s) { Value v = {STRING, 0, (char*)s}; return v; }

static int text(Value v, char* buffer) {
  if (v.tag == NUMBER) return sprintf(buffer, "%lld", v.number);
  return sprintf(buffer, "%s", v.string);
}

static Value add(Value a, Value b) {
  if (a.tag == NUMBER && b.tag == NUMBER) return num(a.number + b.number);
  char left[32], right[32];
  const char* l = a.tag == STRING ? a.string : (text(a, left), left);
  const char* r = b.tag == STRING ? b.string : (text(b, right), right);
  size_t ll = strlen(l), rl = strlen(r);
  char* s = malloc(ll + rl + 1);
  memcpy(s, l, ll);
  memcpy(s + ll, r, rl + 1);
  return str(s);
}

static long long numbers(long long n) {
  Value s = num(0);
  for (long long i = 0; i < n; i++) s = add(s, num(i));
  return s.number;
}

static long long labels(long long n) {
  long long hits = 0;
  for (long long i = 0; i < n; i++) {
    Value v = add(str("k"), num(i % 10));
    if (strcmp(v.string, "k7") == 0) hits++;
    free(v.string);
  }
  return hits;
}

static long long words(long long n) {
  long long hits = 0;
  for (long long i = 0; i < n; i++) {
    Value v = add(str("ab"), str("cd"));
    if (strcmp(v.string, "abcd") == 0) hits++;
    free(v.string);
  }
  return hits;
}

static long long run(long long size) {
  return numbers(size) + labels(size) * 1000 + words(size);
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
