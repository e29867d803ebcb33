// hotloop: a counting loop in a function called many times (port of hotloop.sl).
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function work(n) {
  let i = 0;
  let s = 0;
  while (i < n) {
    s = s + (i * 7 - Math.floor(i / 3));
    i = i + 1;
  }
  return s;
}

function run(size) {
  let c = 0;
  let k = 0;
  while (k < size) {
    const n = 500 + (k % 100);
    c = (c * 31 + work(n)) % 1000000007;
    k = k + 1;
  }
  return c;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
