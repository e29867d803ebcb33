// fib: naive recursive Fibonacci -- calls, returns, small-integer arithmetic.
// Checksum: fib(size). The runner rewrites the two BENCH: lines.
function benchSize() { return 10; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    result = fib(size);
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
