function main() {
  println("first");
  defineFunction();
}
