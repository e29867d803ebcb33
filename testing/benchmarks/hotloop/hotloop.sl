// hotloop: a counting loop inside a function that main's driver calls many
// times (the non-OSR case: work() becomes hot through its call count, so a
// compiler without on-stack replacement still compiles the loop). Each call
// sums i * 7 - i / 3 over 0 <= i < n for n between 500 and 599.
// Checksum: the results folded as c = (c * 31 + work(n)) mod 1000000007.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function work(n) {
  i = 0;
  s = 0;
  while (i < n) {
    s = s + (i * 7 - i / 3);
    i = i + 1;
  }
  return s;
}

function run(size) {
  c = 0;
  k = 0;
  while (k < size) {
    n = 500 + (k - (k / 100) * 100);
    c = c * 31 + work(n);
    c = c - (c / 1000000007) * 1000000007;
    k = k + 1;
  }
  return c;
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
