function inner(a, b) {
  c = a + b;
  return stacktrace();
}

function middle(x) {
  return inner(x, 2);
}

function order(a) {
  x = 1;
  if (a == 1) {
    y = 2;
  }
  z = 3;
  return stacktrace();
}

function values(p) {
  q = p;
  t = 1 == 1;
  u = "text";
  f = println;
  return stacktrace();
}

function main() {
  n = 5;
  println(middle(n));
  println(order(1));
  println(order(0));
  println(values());
}
