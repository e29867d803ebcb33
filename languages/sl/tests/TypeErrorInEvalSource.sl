function main() {
  println("outer");
  eval("sl", "function main() { x = 1 == 1; return x - 1; }");
}
