// A hot, compiled caller keeps calling the current definition of its
// callees: redefinitions from the caller itself, from a callee while the
// caller is suspended in the call, and from eval.
function target(x) { return x + 1; }
function caller(x) { return target(x); }
function redefineTarget(n) {
  defineFunction("function target(x) { return x * " + n + "; }");
  return 0;
}
function callTwice(x) {
  first = target(x);
  redefineTarget(100);
  return first + target(x);
}
function main() {
  i = 0;
  s = 0;
  while (i < 30) {
    s = s + caller(i);
    if (i == 10) { defineFunction("function target(x) { return x - 1; }"); }
    if (i == 20) { eval("sl", "function target(x) { return x * 2; }"); }
    i = i + 1;
  }
  println(s);
  i = 0;
  s = 0;
  while (i < 10) {
    defineFunction("function target(x) { return x + 1; }");
    s = s + callTwice(i);
    i = i + 1;
  }
  println(s);
}
