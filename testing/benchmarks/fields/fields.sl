// fields: object field reads and writes in a hot function (inline caches).
// Three objects of the same shape are moved around a 1000x1000 torus; step()
// reads and writes their fields. Checksum: the sum of step()'s results.
function benchSize() { return 1000; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function makePoint(x, y, dx, dy) {
  p = new();
  p.x = x;
  p.y = y;
  p.dx = dx;
  p.dy = dy;
  return p;
}

function step(p) {
  p.x = p.x + p.dx;
  if (p.x >= 1000) {
    p.x = p.x - 1000;
  }
  p.y = p.y + p.dy;
  if (p.y >= 1000) {
    p.y = p.y - 1000;
  }
  return p.x * 3 + p.y;
}

function run(size) {
  a = makePoint(1, 2, 3, 5);
  b = makePoint(10, 20, 7, 11);
  c = makePoint(100, 200, 13, 17);
  sum = 0;
  i = 0;
  while (i < size) {
    sum = sum + step(a) + step(b) + step(c);
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
