// loop: one long counting loop directly in main (the OSR case: main is entered
// once, so only on-stack replacement can compile the loop). Each step advances
// a small linear congruential generator and sums it.
// Checksum: the sum of the generator's values.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    x = 1;
    sum = 0;
    j = 0;
    while (j < size) {
      x = x * 8121 + 28411;
      x = x - (x / 134456) * 134456;
      sum = sum + x;
      j = j + 1;
    }
    result = sum;
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
