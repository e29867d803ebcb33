// Calls through function values in hot functions: a callee held in a local,
// a property or an argument, with more than four callees per call site (an
// indirect call), builtins as values, missing and extra arguments, and
// functions of many parameters called directly and indirectly.
function a(x) { return x + 1; }
function b(x) { return x + 2; }
function c(x) { return x + 3; }
function d(x) { return x + 4; }
function e(x) { return x * 10; }
function pick(i) {
  r = i - (i / 5) * 5;
  if (r == 0) { return a; }
  if (r == 1) { return b; }
  if (r == 2) { return c; }
  if (r == 3) { return d; }
  return e;
}
function apply(f, x) { return f(x); }
function viaLocal(i) { f = pick(i); return f(i); }
function viaProperty(o, i) { o.f = pick(i); return o.f(i); }
function pair(x, y) { return x + "," + y; }
function swap(x, y) { return y + "," + x; }
function many(p1, p2, p3, p4, p5, p6, p7, p8, p9, p10) {
  return p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9 * p10;
}
function callMany(i) { return many(i, 1, 2, 3, 4, 5, 6, 7, 8, 9); }
function callManyIndirect(f, i) { return f(i, 1, 2, 3, 4, 5, 6, 7, 8, 9); }
function callWithTwo(f, x, y) { return f(x, y); }
function main() {
  i = 0;
  s = 0;
  o = new();
  while (i < 40) {
    s = s + apply(pick(i), i) + viaLocal(i) + viaProperty(o, i);
    s = s + callMany(i) + callManyIndirect(many, i);
    i = i + 1;
  }
  println(s);
  i = 0;
  t = "";
  while (i < 15) {
    r = i - (i / 5) * 5;
    f = pair;
    if (r == 1) { f = a; }
    if (r == 2) { f = b; }
    if (r == 3) { f = typeOf; }
    if (r == 4) { f = swap; }
    t = t + " " + callWithTwo(f, i, i + 1);
    i = i + 1;
  }
  println(t);
  println(apply(println, "printed through a function value"));
  println(callWithTwo(pair, "only"));
  println(callManyIndirect(pair, 5));
}
