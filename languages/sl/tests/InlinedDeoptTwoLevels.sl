// A deoptimization inside a callee inlined two levels deep (outer -> middle
// -> inner), after side effects in every frame: each frame prints and
// counts before the call, and inner's `x + 1` was only ever seen with
// numbers. When a string arrives, the compiled code of outer (which inlined
// middle and inner) deoptimizes inside inner: the interpreter must rebuild
// three activations, resume inner at the failing addition, and hand each
// result to its caller at the call -- nothing before the failing point runs
// twice, and the counters show it.
function inner(x, log) {
  log.inner = log.inner + 1;
  if (log.loud) { println("inner before " + x); }
  y = x + 1;
  if (log.loud) { println("inner after " + y); }
  return y;
}
function middle(x, log) {
  log.middle = log.middle + 1;
  if (log.loud) { println("middle before " + x); }
  r = inner(x, log);
  if (log.loud) { println("middle after " + r); }
  return r + 0 * log.middle;
}
function outer(x, log) {
  log.outer = log.outer + 1;
  if (log.loud) { println("outer before " + x); }
  r = middle(x, log);
  if (log.loud) { println("outer after " + r); }
  return r;
}
function middleString(x, log) {
  log.middle = log.middle + 1;
  if (log.loud) { println("middle before " + x); }
  r = inner(x, log);
  if (log.loud) { println("middle after " + r); }
  return r;
}
function outerString(x, log) {
  log.outer = log.outer + 1;
  if (log.loud) { println("outer before " + x); }
  r = middleString(x, log);
  if (log.loud) { println("outer after " + r); }
  return r;
}
function main() {
  log = new();
  log.inner = 0; log.middle = 0; log.outer = 0; log.loud = 0 == 1;
  i = 0; sum = 0;
  while (i < 11000) {
    sum = sum + outer(i, log);
    sum = sum + outerString(i, log);
    i = i + 1;
  }
  println(sum);
  log.loud = 0 == 0;
  println(outerString("s", log));
  println(outer(7, log));
  println(outerString(9223372036854775807, log));
  println(log.outer + " " + log.middle + " " + log.inner);
}
