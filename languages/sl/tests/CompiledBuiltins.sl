// Every builtin that does not read its caller's frame, called from hot
// functions (directly, so each is a compiled call of the builtin's target).
function useAll(i) {
  o = new();
  o.v = i;
  ty = typeOf(o);
  r = "" + ty + " " + isInstance(ty, o) + " " + isInstance(typeOf(1), o);
  r = r + " " + isExecutable(useAll) + " " + isExecutable(o) + " " + isNull(null);
  r = r + " " + isNull(o) + " " + hasSize(o) + " " + wrapPrimitive(i);
  r = r + " " + inNativeImage() + " " + import("x") + " " + typeOf(typeOf);
  return r;
}
function reading(i) { return i + ":" + readln(); }
function timing(i) {
  t1 = nanoTime();
  t2 = nanoTime();
  return t2 >= t1;
}
function evaluate(i) {
  return eval("sl", "function main() { return " + i + " * 2; }");
}
function define(i) {
  defineFunction("function helper() { return " + i + "; }");
  return helper();
}
function hook() { println("shutdown hook ran"); }
function main() {
  i = 0;
  r = "";
  ok = 1 == 1;
  sum = 0;
  while (i < 30) {
    r = useAll(i);
    ok = ok && timing(i);
    sum = sum + evaluate(i) + define(i);
    i = i + 1;
  }
  println(r);
  println(ok);
  println(sum);
  i = 0;
  while (i < 4) { println(reading(i)); i = i + 1; }
  registerShutdownHook(hook);
  println(println("println returns its argument"));
}
