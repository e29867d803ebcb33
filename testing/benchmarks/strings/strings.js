// strings: string building by concatenation in a loop (port of strings.sl).
const SIZE = 50; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function build(n) {
  let s = "";
  let i = 0;
  while (i < n) {
    s = s + i + ",";
    i = i + 1;
  }
  return s;
}

function buildRange(lo, hi) {
  if (hi - lo === 1) {
    return lo + ",";
  }
  const mid = Math.floor((lo + hi) / 2);
  return buildRange(lo, mid) + buildRange(mid, hi);
}

function run(size) {
  const reference = buildRange(0, size);
  let matches = 0;
  let round = 0;
  while (round < 10) {
    if (build(size) === reference) {
      matches = matches + 1;
    }
    round = round + 1;
  }
  let literal = 0;
  if (build(12) === "0,1,2,3,4,5,6,7,8,9,10,11,") {
    literal = 1;
  }
  return size * 10000 + matches * 10 + literal;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
