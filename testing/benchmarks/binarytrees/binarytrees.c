// binarytrees: the classic binary-trees allocation benchmark (port of
// binarytrees.sl). Each node is malloc'ed and every tree is freed
// (recursively) once checked, as the plain C version of the benchmark does.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 6  // BENCH:SIZE
#define ITERATIONS 1  // BENCH:ITERATIONS

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct Node {
  struct Node* left;
  struct Node* right;
} Node;

static Node* treeNode(Node* left, Node* right) {
  Node* t = malloc(sizeof(Node));
  t->left = left;
  t->right = right;
  return t;
}

static Node* bottomUpTree(long long depth) {
  if (depth > 0) {
    Node* left = bottomUpTree(depth - 1);
    return treeNode(left, bottomUpTree(depth - 1));
  }
  return treeNode(NULL, NULL);
}

static long long check(const Node* tree) {
  if (tree->left == NULL) return 1;
  return 1 + check(tree->left) + check(tree->right);
}

static void freeTree(Node* tree) {
  if (tree->left != NULL) {
    freeTree(tree->left);
    freeTree(tree->right);
  }
  free(tree);
}

static long long checkAndFree(Node* tree) {
  long long result = check(tree);
  freeTree(tree);
  return result;
}

static long long binarytrees(long long size) {
  long long minDepth = 4;
  long long maxDepth = size;
  if (maxDepth < minDepth + 2) maxDepth = minDepth + 2;
  long long total = checkAndFree(bottomUpTree(maxDepth + 1));
  Node* longLived = bottomUpTree(maxDepth);
  for (long long depth = minDepth; depth <= maxDepth; depth += 2) {
    long long iterations = 1LL << (maxDepth - depth + minDepth);
    long long sum = 0;
    for (long long i = 0; i < iterations; i++) sum = sum + checkAndFree(bottomUpTree(depth));
    total = total + sum;
  }
  return total + checkAndFree(longLived);
}

static volatile long long size_input = SIZE;  // opaque to the optimizer

int main(void) {
  long long size = size_input;
  long long result = 0;
  for (int i = 0; i < ITERATIONS; i++) {
    long long start = now_ns();
    result = binarytrees(size);
    printf("iteration %d %lld\n", i, now_ns() - start);
  }
  printf("checksum %lld\n", result);
  return 0;
}
