// An inlined callee is redefined while its caller's compiled code is on the
// stack: `step` (inlined into `run`) calls `change`, which redefines `step`
// itself and `leaf` (inlined into step). The activation in progress
// finishes with the code it started (its values are not recomputed), and
// the next calls see the new definitions.
function leaf(x) { return x * 2; }
function change(n) {
  if (n == 1500) {
    defineFunction("function leaf(x) { return x * 3; }");
    defineFunction("function step(x, n) { return leaf(x) + 1000000; }");
  }
  return 0;
}
function step(x, n) {
  a = leaf(x);
  b = change(n);
  return a + b + leaf(x);
}
function run(n) {
  s = 0;
  i = 0;
  while (i < n) {
    s = s + step(i, i);
    i = i + 1;
  }
  return s;
}
function main() {
  println(run(1400));
  println(run(1600));
  println(step(1, 0));
  println(run(10));
}
