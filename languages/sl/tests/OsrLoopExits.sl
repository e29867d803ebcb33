// Every way out of a loop that on-stack replacement compiled: the condition,
// break, continue, return (with the return value), an error; nested loops;
// a value that changes type inside the compiled loop (deoptimization in the
// middle of the loop, after side effects); helloEqualsWorld() and
// stacktrace() called from the loop see the loop's current locals.
function sum(n) {
  i = 0; acc = 0;
  while (i < n) {
    i = i + 1;
    if (i == 7) { continue; }
    acc = acc + i;
    if (i == 3000) { break; }
  }
  return acc;
}
function firstAbove(limit) {
  i = 0;
  while (1 == 1) {
    if (i * i > limit) { return i; }
    i = i + 1;
  }
}
function typeChange() {
  i = 0; acc = 0;
  while (i < 2000) {
    if (i == 1500) { acc = acc + "!"; println(acc); acc = 0; }
    acc = acc + i;
    i = i + 1;
  }
  return acc;
}
function overflow() {
  i = 0; x = 4611686018427387904;
  while (i < 3) { x = x + x; println(x); i = i + 1; }
  return x;
}
function nested() {
  k = 0; total = 0;
  while (k < 40) {
    j = 0;
    while (j < 60) { total = total + j * k; j = j + 1; }
    k = k + 1;
  }
  return total;
}
function frames() {
  i = 0; hello = 0;
  while (i < 3) {
    hello = i;
    helloEqualsWorld();
    println(hello);
    i = i + 1;
  }
  println(stacktrace());
}
function fails() {
  i = 0; o = new();
  while (i < 1000) { if (i == 999) { o = 5; } o.x = i; i = i + 1; }
}
function main() {
  println(sum(10));
  println(sum(100000));
  println(firstAbove(1000000));
  println(typeChange());
  println(overflow());
  println(nested());
  frames();
  fails();
}
