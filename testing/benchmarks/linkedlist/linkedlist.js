// linkedlist: build, walk and drop a 10000-cell linked list, `size` times
// (port of linkedlist.sl). Cells are objects with `value` and `next`.
const SIZE = 10; // BENCH:SIZE
const ITERATIONS = 1; // BENCH:ITERATIONS

function cons(value, next) {
  const cell = {};
  cell.value = value;
  cell.next = next;
  return cell;
}

function build(length, round) {
  let head = null;
  let i = length;
  while (i > 0) {
    i = i - 1;
    head = cons(round + i, head);
  }
  return head;
}

function sum(list) {
  let total = 0;
  while (list !== null) {
    total = total + list.value;
    list = list.next;
  }
  return total;
}

function countOdd(list) {
  let count = 0;
  while (list !== null) {
    if (list.value % 2 === 1) {
      count = count + 1;
    }
    list = list.next;
  }
  return count;
}

function run(size) {
  let result = 0;
  let round = 0;
  while (round < size) {
    const list = build(10000, round);
    result = result + sum(list) + countOdd(list);
    round = round + 1;
  }
  return result;
}

let result = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const start = process.hrtime.bigint();
  result = run(SIZE);
  console.log(`iteration ${i} ${process.hrtime.bigint() - start}`);
}
console.log(`checksum ${result}`);
