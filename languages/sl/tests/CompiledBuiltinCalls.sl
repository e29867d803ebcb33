// Builtins called from hot (compiled) functions are runtime calls, not
// calls into the builtin's call target (languages/sl/nodes/invoke_node.h):
// results, fewer or more arguments than the builtin takes, a builtin's type
// error, eval and defineFunction (which may run guest code or redefine the
// caller's callees), and exit with a shutdown hook.
function nothing() {}
function hook() { println("shutdown hook"); }
function probe(x) {
  o = new();
  o.kind = typeOf(x);
  o.null = isNull(x);
  o.exec = isExecutable(x);
  o.num = isInstance(typeOf(1), x);
  return o;
}
function show(o) { return "" + o.null + " " + o.exec + " " + o.num; }
function few() { return isNull(); }
function many(x) { return isNull(x, 1, 2); }
function twice(x) { return x * 2; }
function redefineAndCall(i) {
  if (i == 40) { defineFunction("function twice(x) { return x * 3; }"); }
  return twice(i);
}
function evaluate(i) { return eval("sl", "function main() { return " + i + " + 1; }"); }
function typeErrorIn(i) {
  if (i == 45) { return isInstance(i, i); }
  return i;
}
function main() {
  registerShutdownHook(hook);
  i = 0;
  sum = 0;
  while (i < 50) {
    sum = sum + redefineAndCall(i) + evaluate(i);
    s = show(probe(i)) + show(probe(nothing())) + show(probe(nothing)) + few() + many(i);
    if (i == 0 || i == 49) { println(s); }
    i = i + 1;
  }
  println(sum);
  i = 0;
  while (i < 50) {
    typeErrorIn(i);
    i = i + 1;
  }
}
