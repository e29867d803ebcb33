// binarytrees: the classic binary-trees allocation benchmark (port of
// binarytrees.sl). Nodes are objects with `left` and `right`; a leaf has null
// children.
const SIZE = 6; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function treeNode(left, right) {
  const t = {};
  t.left = left;
  t.right = right;
  return t;
}

function bottomUpTree(depth) {
  if (depth > 0) {
    return treeNode(bottomUpTree(depth - 1), bottomUpTree(depth - 1));
  }
  return treeNode(null, null);
}

function check(tree) {
  if (tree.left === null) {
    return 1;
  }
  return 1 + check(tree.left) + check(tree.right);
}

function binarytrees(size) {
  const minDepth = 4;
  let maxDepth = size;
  if (maxDepth < minDepth + 2) {
    maxDepth = minDepth + 2;
  }
  let total = check(bottomUpTree(maxDepth + 1));
  const longLived = bottomUpTree(maxDepth);
  let depth = minDepth;
  while (depth <= maxDepth) {
    const iterations = 2 ** (maxDepth - depth + minDepth);
    let sum = 0;
    let i = 0;
    while (i < iterations) {
      sum = sum + check(bottomUpTree(depth));
      i = i + 1;
    }
    total = total + sum;
    depth = depth + 2;
  }
  return total + check(longLived);
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = binarytrees(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
