// fib: naive recursive Fibonacci (port of fib.sl).
const SIZE = 10; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = fib(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
