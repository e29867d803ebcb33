// strings: string building by concatenation in a loop. build(n) appends
// "0,1,2,...,n-1," one piece at a time (ten rounds); each result is compared
// with the same text built by divide and conquer, and build(12) with a literal.
// Checksum: size * 10000 + rounds that matched * 10 + literal check.
function benchSize() { return 50; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function build(n) {
  s = "";
  i = 0;
  while (i < n) {
    s = s + i + ",";
    i = i + 1;
  }
  return s;
}

function buildRange(lo, hi) {
  if (hi - lo == 1) {
    return lo + ",";
  }
  mid = (lo + hi) / 2;
  return buildRange(lo, mid) + buildRange(mid, hi);
}

function run(size) {
  reference = buildRange(0, size);
  matches = 0;
  round = 0;
  while (round < 10) {
    if (build(size) == reference) {
      matches = matches + 1;
    }
    round = round + 1;
  }
  literal = 0;
  if (build(12) == "0,1,2,3,4,5,6,7,8,9,10,11,") {
    literal = 1;
  }
  return size * 10000 + matches * 10 + literal;
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
