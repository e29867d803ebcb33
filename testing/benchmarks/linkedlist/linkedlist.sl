// linkedlist: build a linked list of 10000 cells (objects with `value` and
// `next`), walk it twice (sum of the values, then the number of odd values)
// and drop it, `size` times. The cells are garbage as soon as the next list
// is built: allocation and collection of a mid-sized, short-lived structure.
// Checksum: the sum over all rounds of (sum + odd count).
function benchSize() { return 10; } // BENCH:SIZE
function benchIterations() { return 1; } // BENCH:ITERATIONS

function null() {}

function cons(value, next) {
  cell = new();
  cell.value = value;
  cell.next = next;
  return cell;
}

// The list round, round + 1, ..., round + length - 1 (head first).
function build(length, round) {
  head = null();
  i = length;
  while (i > 0) {
    i = i - 1;
    head = cons(round + i, head);
  }
  return head;
}

function sum(list) {
  total = 0;
  while (1 == 1) {
    if (isNull(list)) {
      break;
    }
    total = total + list.value;
    list = list.next;
  }
  return total;
}

function countOdd(list) {
  count = 0;
  while (1 == 1) {
    if (isNull(list)) {
      break;
    }
    v = list.value;
    if (v - (v / 2) * 2 == 1) {
      count = count + 1;
    }
    list = list.next;
  }
  return count;
}

function run(size) {
  result = 0;
  round = 0;
  while (round < size) {
    list = build(10000, round);
    result = result + sum(list) + countOdd(list);
    round = round + 1;
  }
  return result;
}

function main() {
  size = benchSize();
  iterations = benchIterations();
  result = 0;
  i = 0;
  while (i < iterations) {
    start = nanoTime();
    result = run(size);
    println("iteration " + i + " " + (nanoTime() - start));
    i = i + 1;
  }
  println("checksum " + result);
}
