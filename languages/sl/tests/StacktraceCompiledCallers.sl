// stacktrace() called from an interpreted function (g reads its caller's
// frame, so it never compiles) whose callers run compiled code once they are
// hot: the compiled callers are listed with their current locals, exactly
// as the interpreter shows them. The last call makes compiled p deoptimize
// (a + b on a string) before it calls g: its compiled caller q stays
// compiled and is listed too.
function g(x) { y = x + "!"; return stacktrace(); }
function f(a, b) { c = a + b; d = c * 3; s = g(d); e = d + 1; return s + " e=" + e; }
function h(n) { k = n - 1; w = n * n; t = f(n, k); return t + " w=" + w; }
function p(a, b) { c = a + b; s = g(c); return s; }
function q(n, m) { z = n * 10; return p(n, m); }
// More values live across the call than there are callee-saved registers.
function many(a) {
  b = a + 1; c = a + 2; d = a + 3; e = a + 4; f = a + 5; g = a + 6; h = a + 7; i = a + 8;
  s = p(a, i);
  return s + " sum=" + (b + c + d + e + f + g + h + i);
}
function main() {
  i = 0;
  while (i < 20) { h(i); q(i, i); many(i); i = i + 1; }
  println(h(100));
  println(q(1, 2));
  println(q(1, "x"));
  println(many(1000));
}
