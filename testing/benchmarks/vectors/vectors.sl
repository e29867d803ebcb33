// vectors: records' computation with the step written in the loop: the
// vectors a, b and c are locals of the function that loops, assigned new
// vectors in every iteration (records keeps them in a called function's
// frame). Escape analysis must keep the previous iteration's vectors, which
// only a deoptimization could still read, virtual at the loop header.
// Checksum: the sum of dot(c, b) over `size` steps (records' checksum).
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function vec(x, y, z) {
  v = new();
  v.x = x;
  v.y = y;
  v.z = z;
  return v;
}

function add(a, b) {
  return vec(a.x + b.x, a.y + b.y, a.z + b.z);
}

function scale(a, k) {
  return vec(a.x * k, a.y * k, a.z * k);
}

function cross(a, b) {
  return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

function dot(a, b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

function run(size) {
  sum = 0;
  k = 0;
  i = 0;
  while (i < size) {
    a = vec(k, k + 1, k + 2);
    b = vec(3, k, 1);
    c = add(scale(a, 2), cross(a, b));
    sum = sum + dot(c, b);
    k = k + 1;
    if (k == 100) {
      k = 0;
    }
    i = i + 1;
  }
  return sum;
}

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    result = run(size);
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
