// A guest error raised in a callee reached through an indirect call (more
// than four callees) passes through the compiled caller unchanged.
function a(x) { return x; }
function b(x) { return x; }
function c(x) { return x; }
function d(x) { return x; }
function bad(x) { if (x > 25) { return x + new(); } return x; }
function apply(f, x) { return f(x); }
function main() {
  i = 0;
  while (i < 30) {
    r = i - (i / 5) * 5;
    f = a;
    if (r == 1) { f = b; }
    if (r == 2) { f = c; }
    if (r == 3) { f = d; }
    if (r == 4) { f = bad; }
    println(apply(f, i));
    i = i + 1;
  }
}
