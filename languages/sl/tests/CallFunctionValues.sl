function double(x) {
  return x * 2;
}

function pick() {
  return double;
}

function apply(f, v) {
  return f(v);
}

function main() {
  println(pick()(21));
  println(apply(double, 5));
  g = double;
  println(g(g(3)));
  println(apply(println, "printed by apply"));
}
