// stacktrace() called from a callee inlined two levels deep lists every
// inlined frame as if it had been a real call, with its current locals, in
// compiled code as in the interpreter.
function leaf(n) { k = n + 1; if (n == 3000) { return stacktrace(); } return k; }
function mid(n) { m = n * 2; t = leaf(n); return t; }
function top(n) { q = n - 1; u = mid(n); return u; }
function main() {
  i = 0; s = 0;
  while (i < 3000) { s = s + top(i); i = i + 1; }
  println(s);
  println(top(3000));
}
