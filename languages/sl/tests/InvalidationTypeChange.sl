// Values change type while they flow into compiled code: a loop compiled
// while every value was a small number keeps running as the accumulator
// overflows into a big number and then becomes a string; a function
// compiled for numbers then sees big numbers, strings and numbers again.

function step(i) {
  if (i < 3) {
    return i;
  }
  if (i < 6) {
    return 9223372036854775807;
  }
  return "s" + i;
}

function accumulate(n) {
  i = 0;
  acc = 0;
  while (i < n) {
    acc = acc + step(i);
    i = i + 1;
  }
  return acc;
}

function add(a, b) { return a + b; }

function grow(x, n) {
  i = 0;
  while (i < n) {
    x = add(x, x);
    i = i + 1;
  }
  return x;
}

function main() {
  k = 0;
  r = 0;
  while (k < 30) {
    r = accumulate(3) + grow(1, 10);
    k = k + 1;
  }
  println(r);
  println(accumulate(9));
  println(accumulate(3));
  println(grow(1, 70));
  println(grow("ab", 3));
  println(add(9223372036854775807, 1));
  println(add("x", 1));
  println(grow(1, 5));
}
