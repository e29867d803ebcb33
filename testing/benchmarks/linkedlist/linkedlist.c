// linkedlist: build, walk and drop a 10000-cell linked list, `size` times
// (port of linkedlist.sl). Each cell is malloc'ed; the list is freed cell by
// cell once walked.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 10  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Cell {
  long long value;
  struct Cell* next;
} Cell;

static Cell* cons(long long value, Cell* next) {
  Cell* cell = malloc(sizeof(Cell));
  cell->value = value;
  cell->next = next;
  return cell;
}

static Cell* build(long long length, long long round) {
  Cell* head = NULL;
  long long i = length;
  while (i > 0) {
    i = i - 1;
    head = cons(round + i, head);
  }
  return head;
}

static long long sum(const Cell* list) {
  long long total = 0;
  for (; list != NULL; list = list->next) total = total + list->value;
  return total;
}

static long long countOdd(const Cell* list) {
  long long count = 0;
  for (; list != NULL; list = list->next) {
    if (list->value % 2 == 1) count = count + 1;
  }
  return count;
}

static void freeList(Cell* list) {
  while (list != NULL) {
    Cell* next = list->next;
    free(list);
    list = next;
  }
}

static long long run(long long size) {
  long long result = 0;
  for (long long round = 0; round < size; round++) {
    Cell* list = build(10000, round);
    result = result + sum(list) + countOdd(list);
    freeList(list);
  }
  return result;
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
