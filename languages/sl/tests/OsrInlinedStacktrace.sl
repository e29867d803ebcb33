// A loop in main runs long enough to be OSR-compiled; its callees are hot
// enough to be inlined into that code. stacktrace() called from a callee
// inlined two levels deep into the OSR code lists each inlined frame once,
// then main's (the interpreter's own frame, with its current locals).
function leaf(n) { k = n + 1; if (n == 99999 || n == 199999 || n == 299999) { return stacktrace(); } return k; }
function mid(n) { m = n * 2; t = leaf(n); return t; }
function top(n) { q = n - 1; u = mid(n); return u; }
function main() {
  i = 0; s = 0;
  while (i < 300000) {
    r = top(i);
    if (i == 99999 || i == 199999 || i == 299999) { println(r); } else { s = s + r; }
    i = i + 1;
  }
  println(s);
}
