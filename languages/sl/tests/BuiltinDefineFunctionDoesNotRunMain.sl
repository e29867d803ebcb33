function main() {
  defineFunction("function main() { println(0); } function helper() { return 5; }");
  println("still the original main");
  return helper();
}
