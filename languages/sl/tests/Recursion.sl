function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

function fact(n) {
  if (n <= 1) {
    return 1;
  }
  return n * fact(n - 1);
}

function isEven(n) {
  if (n == 0) {
    return 1 == 1;
  }
  return isOdd(n - 1);
}

function isOdd(n) {
  if (n == 0) {
    return 1 == 2;
  }
  return isEven(n - 1);
}

function main() {
  i = 0;
  while (i <= 10) {
    println(i + ": " + fib(i));
    i = i + 1;
  }
  println(fact(20));
  println(fact(25));
  println(isEven(10));
  println(isOdd(7));
  println(isOdd(10));
}
