// The program of inlining_trace_test: call trees with each state a test can
// reach through SL (Inlined, Cutoff, Expanded, Removed, Indirect, BailedOut)
// and a recursive callee, compiled in the foreground so the counts (and so
// the frequencies) are the same in every run.
function g() { return 1; }
function f(x) { if (x == 1) { return g(); } return 2; }
function h() { return f(0); }
function fact(n) { if (n < 2) { return 1; } return n * fact(n - 1); }
function a1(x) { return x + 1; }
function a2(x) { return x + 2; }
function a3(x) { return x + 3; }
function a4(x) { return x + 4; }
function a5(x) { return x + 5; }
function pick(i) {
  r = i - (i / 5) * 5;
  if (r == 0) { return a1; }
  if (r == 1) { return a2; }
  if (r == 2) { return a3; }
  if (r == 3) { return a4; }
  return a5;
}
function apply(fn, x) { return fn(x); }
// stacktrace() reads its caller's frame: a builtin that is called through
// its call target, and whose root cannot be partially evaluated (BailedOut).
function rare(x) { if (x < 0) { t = stacktrace(); return 0; } return x; }
function dispatch(i) { return apply(pick(i), i) + fact(5) + rare(i); }
function main() {
  i = 0; s = rare(0 - 1);
  while (i < 1200) {
    s = s + h() + f(i - (i / 2) * 2) + dispatch(i);
    i = i + 1;
  }
  println(s);
}
