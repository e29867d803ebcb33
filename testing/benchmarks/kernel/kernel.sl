// kernel: an integer arithmetic kernel in a hot function. collatz(n) counts
// the steps of the Collatz map (n / 2 if n is even, 3n + 1 if odd) from n down
// to 1; run() calls it for every n in 1..size. All values stay far below 2^53
// for the sizes used (the largest trajectory value below 10^6 is about 5.7e10).
// Checksum: the sum of the step counts.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function collatz(n) {
  steps = 0;
  while (n > 1) {
    half = n / 2;
    if (n - half * 2 == 0) {
      n = half;
    } else {
      n = 3 * n + 1;
    }
    steps = steps + 1;
  }
  return steps;
}

function run(size) {
  sum = 0;
  n = 1;
  while (n <= size) {
    sum = sum + collatz(n);
    n = n + 1;
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
