// sieve: the sieve of Eratosthenes over 2..1000, run `size` times, with an
// object used as an array of Booleans (o[i] keys: the object's elements,
// languages/sl/runtime/sl_object.h), after the Are-We-Fast-Yet Sieve benchmark
// (which sieves 2..5000; the limit is 1000 in all four ports here).
// Checksum: the sum of the primes <= 1000, times size.
function benchSize() { return 2; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function sieve(limit) {
  flags = new();
  i = 2;
  while (i <= limit) {
    flags[i] = 1 == 1;
    i = i + 1;
  }
  sum = 0;
  i = 2;
  while (i <= limit) {
    if (flags[i]) {
      sum = sum + i;
      k = i + i;
      while (k <= limit) {
        flags[k] = 1 == 2;
        k = k + i;
      }
    }
    i = i + 1;
  }
  return sum;
}

function run(size) {
  total = 0;
  r = 0;
  while (r < size) {
    total = total + sieve(1000);
    r = r + 1;
  }
  return total;
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
