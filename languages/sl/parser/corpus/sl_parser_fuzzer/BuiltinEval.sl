function main() {
  r = eval("sl", "function main() { return 6 * 7; }");
  println(r);
  println(eval("sl", "function helperFromEval(x) { return x + 1; }"));
  println(helperFromEval(1));
  println(eval("sl", "function noResult() { } function main() { return noResult(); }"));
}
