// vectors: records' computation with the step written in the loop
// (port of vectors.sl). Vectors are objects with x, y and z.
const SIZE = 1000; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function vec(x, y, z) {
  const v = {};
  v.x = x;
  v.y = y;
  v.z = z;
  return v;
}

function add(a, b) {
  return vec(a.x + b.x, a.y + b.y, a.z + b.z);
}

function scale(a, k) {
  return vec(a.x * k, a.y * k, a.z * k);
}

function cross(a, b) {
  return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

function dot(a, b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

function run(size) {
  let sum = 0;
  let k = 0;
  let i = 0;
  while (i < size) {
    const a = vec(k, k + 1, k + 2);
    const b = vec(3, k, 1);
    const c = add(scale(a, 2), cross(a, b));
    sum = sum + dot(c, b);
    k = k + 1;
    if (k === 100) {
      k = 0;
    }
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
