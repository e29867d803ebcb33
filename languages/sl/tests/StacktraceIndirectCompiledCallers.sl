// stacktrace() reached through indirect calls (call sites that saw more than
// four callees) from functions that run compiled code: the runtime call
// keeps its compiled callers visible, so they are listed with their current
// locals, exactly as the interpreter shows them -- also several compiled
// frames deep, and with more values live across the call than there are
// callee-saved registers. (helloEqualsWorld, which writes its caller's
// frame, is still called by the interpreter: see
// HelloEqualsWorldCompiledCaller.sl and CompiledIndirectStacktrace.sl.)
function a() { return "a"; }
function b() { return "b"; }
function c() { return "c"; }
function d() { return "d"; }
function pick(i) {
  r = i - (i / 5) * 5;
  if (r == 0) { return a; }
  if (r == 1) { return b; }
  if (r == 2) { return c; }
  if (r == 3) { return d; }
  return stacktrace;
}
function call(f, n) { k = n * 2; s = f(); return s + " k=" + k; }
function middle(f, n) { m = n + 1; t = call(f, m); return t + " m=" + m; }
function many(f, x) {
  b1 = x + 1; b2 = x + 2; b3 = x + 3; b4 = x + 4; b5 = x + 5; b6 = x + 6; b7 = x + 7;
  s = f();
  return s + " sum=" + (b1 + b2 + b3 + b4 + b5 + b6 + b7);
}
function main() {
  i = 0;
  while (i < 40) {
    middle(pick(i), i);
    many(pick(i), i);
    i = i + 1;
  }
  println(middle(a, 1));
  println(middle(stacktrace, 100));
  println(many(stacktrace, 1000));
}
