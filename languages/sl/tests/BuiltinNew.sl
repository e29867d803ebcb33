function nothing() {
}

function main() {
  a = new();
  b = new(nothing());
  println(a);
  println(b);
  println(a == b);
  b.v = 1;
  println(b.v);
  println(typeOf(a));
}
