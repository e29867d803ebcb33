// poly: one callee, add(a, b), called from three callers with different
// argument types: Number + Number, String + Number, String + String. Its `+`
// is polymorphic unless each caller gets its own copy (call-target splitting).
// Checksum: combines the number sum and the counts of expected strings.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function add(a, b) {
  return a + b;
}

function numbers(n) {
  s = 0;
  i = 0;
  while (i < n) {
    s = add(s, i);
    i = i + 1;
  }
  return s;
}

function labels(n) {
  hits = 0;
  i = 0;
  while (i < n) {
    if (add("k", i - (i / 10) * 10) == "k7") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function words(n) {
  hits = 0;
  i = 0;
  while (i < n) {
    if (add("ab", "cd") == "abcd") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function run(size) {
  return numbers(size) + labels(size) * 1000 + words(size);
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
