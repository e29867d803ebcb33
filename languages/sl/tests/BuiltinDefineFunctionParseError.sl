function main() {
  println("before");
  defineFunction("function f");
}
