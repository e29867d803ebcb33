function foo() {
  return test(40);
}

function test(x) {
  return x + 2;
}

function main() {
  ref = test;
  holder = new();
  holder.f = test;
  println(foo());
  r = defineFunction("function test(x) { return x - 2; }");
  println(foo());
  println(ref(10));
  println(holder.f(10));
  println(r);
  defineFunction("function brandNew() { return 7; } function another(a) { return a * a; }");
  println(brandNew() + another(3));
  early = notYet;
  println(isExecutable(early));
  defineFunction("function notYet() { return 99; }");
  println(early());
}
