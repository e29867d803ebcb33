function main() {
  defineFunction("function caller() { return missingCallee(); }");
  println("defined");
  caller();
}
