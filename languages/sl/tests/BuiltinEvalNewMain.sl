function main() {
  println("original main starts");
  r = eval("sl", "function main() { println(1 + 1); return 7; }");
  println("eval returned " + r);
  println("original main continues");
  println(main());
}
