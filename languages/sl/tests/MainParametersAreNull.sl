function main(a, b) {
  println(a);
  println(isNull(b));
  println(a == b);
}
