// A stack walk from code that eval runs stops at eval's frame (an internal
// root, sl_spec §9), also when eval's caller runs compiled: compiled code
// calls eval through its call target, never without a frame.

function traceHelper(v) {
  if (v == 500) {
    println(stacktrace());
  }
  return v;
}

function caller(i) {
  outer = i;
  return eval("sl", "function main() { return traceHelper(" + i + "); }");
}

function main() {
  i = 0;
  sum = 0;
  while (i < 1000) {
    sum = sum + caller(i);
    i = i + 1;
  }
  println(sum);
}
