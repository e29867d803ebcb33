// binarytrees: the classic binary-trees allocation benchmark (Benchmarks
// Game, after Hans Boehm's GCBench). A tree node is an object with `left` and
// `right`; a leaf has null children. For maxDepth = max(6, size): a stretch
// tree of depth maxDepth + 1 is built, checked and dropped; a long-lived tree
// of depth maxDepth is kept while, for depth = 4, 6, ..., maxDepth,
// 2^(maxDepth - depth + 4) short-lived trees of that depth are built, checked
// and dropped. check(tree) counts its nodes. size = maxDepth. Checksum: the
// sum of every check (stretch, short-lived and long-lived trees).
function benchSize() { return 6; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function null() {}

function treeNode(left, right) {
  t = new();
  t.left = left;
  t.right = right;
  return t;
}

function bottomUpTree(depth) {
  if (depth > 0) {
    return treeNode(bottomUpTree(depth - 1), bottomUpTree(depth - 1));
  }
  return treeNode(null(), null());
}

function check(tree) {
  if (isNull(tree.left)) {
    return 1;
  }
  return 1 + check(tree.left) + check(tree.right);
}

function power2(n) {
  p = 1;
  while (n > 0) {
    p = p * 2;
    n = n - 1;
  }
  return p;
}

function binarytrees(size) {
  minDepth = 4;
  maxDepth = size;
  if (maxDepth < minDepth + 2) {
    maxDepth = minDepth + 2;
  }
  total = check(bottomUpTree(maxDepth + 1));
  longLived = bottomUpTree(maxDepth);
  depth = minDepth;
  while (depth <= maxDepth) {
    iterations = power2(maxDepth - depth + minDepth);
    sum = 0;
    i = 0;
    while (i < iterations) {
      sum = sum + check(bottomUpTree(depth));
      i = i + 1;
    }
    total = total + sum;
    depth = depth + 2;
  }
  return total + check(longLived);
}

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    result = binarytrees(size);
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
