// poly: one polymorphic callee called with numbers and strings (port of
// poly.sl). JavaScript's `+` has the same meaning as SL's here.
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function add(a, b) {
  return a + b;
}

function numbers(n) {
  let s = 0;
  let i = 0;
  while (i < n) {
    s = add(s, i);
    i = i + 1;
  }
  return s;
}

function labels(n) {
  let hits = 0;
  let i = 0;
  while (i < n) {
    if (add("k", i % 10) === "k7") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function words(n) {
  let hits = 0;
  let i = 0;
  while (i < n) {
    if (add("ab", "cd") === "abcd") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function run(size) {
  return numbers(size) + labels(size) * 1000 + words(size);
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
