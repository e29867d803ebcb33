function fib(n) {
  a = 0;
  b = 1;
  i = 0;
  while (i < n) {
    next = a + b;
    a = b;
    b = next;
    i = i + 1;
  }
  return a;
}

function main() {
  println(fib(10));
  println(fib(92));
  println(fib(93));
  return fib(100);
}
