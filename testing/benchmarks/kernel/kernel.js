// kernel: Collatz step counts over 1..size in a hot function (port of kernel.sl).
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function collatz(n) {
  let steps = 0;
  while (n > 1) {
    if (n % 2 === 0) {
      n = Math.floor(n / 2);
    } else {
      n = 3 * n + 1;
    }
    steps = steps + 1;
  }
  return steps;
}

function run(size) {
  let sum = 0;
  let n = 1;
  while (n <= size) {
    sum = sum + collatz(n);
    n = n + 1;
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
