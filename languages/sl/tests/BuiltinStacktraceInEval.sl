function traceHelper(v) {
  println(stacktrace());
  return v + 1;
}

function main() {
  outer = 1;
  println(eval("sl", "function main() { inEval = 2; return traceHelper(inEval); }"));
}
