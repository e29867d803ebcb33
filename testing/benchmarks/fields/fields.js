// fields: object field access in a hot function (port of fields.sl).
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function makePoint(x, y, dx, dy) {
  const p = {};
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
  const a = makePoint(1, 2, 3, 5);
  const b = makePoint(10, 20, 7, 11);
  const c = makePoint(100, 200, 13, 17);
  let sum = 0;
  let i = 0;
  while (i < size) {
    sum = sum + step(a) + step(b) + step(c);
    i = i + 1;
  }
  return sum;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
