// sieve: the sieve of Eratosthenes over 2..1000, run `size` times (port of
// sieve.sl), with an array of booleans.
const SIZE = 2; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function sieve(limit) {
  const flags = [];
  let i = 2;
  while (i <= limit) {
    flags[i] = true;
    i = i + 1;
  }
  let sum = 0;
  i = 2;
  while (i <= limit) {
    if (flags[i]) {
      sum = sum + i;
      let k = i + i;
      while (k <= limit) {
        flags[k] = false;
        k = k + i;
      }
    }
    i = i + 1;
  }
  return sum;
}

function run(size) {
  let total = 0;
  let r = 0;
  while (r < size) {
    total = total + sieve(1000);
    r = r + 1;
  }
  return total;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
