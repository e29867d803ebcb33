// The README's first example: recursion, loops, strings and big numbers.
function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

function main() {
  i = 0;
  while (i <= 10) {
    println("fib(" + i + ") = " + fib(i));
    i = i + 1;
  }
  big = 1;
  i = 0;
  while (i < 30) {
    big = big * 1000;
    i = i + 1;
  }
  println("10^90 + 1 = " + (big + 1));
  return "done";
}
