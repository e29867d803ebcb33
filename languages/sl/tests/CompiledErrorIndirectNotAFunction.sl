// An indirect call site (more than four callees) of a compiled function
// given something that is not a function: the interpreter's error.
function a(x) { return x; }
function b(x) { return x; }
function c(x) { return x; }
function d(x) { return x; }
function e(x) { return x; }
function apply(f, x) { return f(x); }
function main() {
  i = 0;
  s = 0;
  while (i < 30) {
    r = i - (i / 5) * 5;
    f = a;
    if (r == 1) { f = b; }
    if (r == 2) { f = c; }
    if (r == 3) { f = d; }
    if (r == 4) { f = e; }
    s = s + apply(f, i);
    i = i + 1;
  }
  println(s);
  println(apply(42, 1));
}
