function main() {
  defineFunction("function bad(a) { return a * 2; }");
  println(bad(21));
  println(bad(1 == 1));
}
