// loop: one long counting loop at the top level (port of loop.sl).
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  let x = 1;
  let sum = 0;
  let j = 0;
  while (j < SIZE) {
    x = (x * 8121 + 28411) % 134456;
    sum = sum + x;
    j = j + 1;
  }
  result = sum;
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
