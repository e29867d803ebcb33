// isNull and new() run as intrinsics where the call site knows its callee
// (no builtin call in either interpreter, inline in compiled code);
// redefining them afterwards must reach every such call site.

function nothing() {}

function nullCheck(x) {
  return isNull(x);
}

function fresh() {
  return new();
}

function run(n) {
  count = 0;
  i = 0;
  while (i < n) {
    if (nullCheck(nothing())) {
      count = count + 1;
    }
    if (nullCheck(i)) {
      count = count + 1000;
    }
    if (isNull()) {
      count = count + 1000000;
    }
    o = fresh();
    o.k = i;
    count = count + o.k - i;
    i = i + 1;
  }
  return count;
}

function main() {
  println(run(2000));
  println(typeOf(fresh()));
  defineFunction("function isNull(x) { return x == 3; }");
  println(run(5));
  println(nullCheck(3));
  println(nullCheck(nothing()));
  defineFunction("function new() { return 7; }");
  println(typeOf(fresh()));
  println(fresh() + 1);
}
