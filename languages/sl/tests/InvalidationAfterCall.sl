// A compiled caller whose callee redefines a function the caller calls
// next. The caller must notice the invalidation right after the call that
// caused it and continue (in the interpreter) with that call's result,
// never calling it again: its side effect (the println) appears once. The
// call sits in each position an expression can take. (SL has no Boolean
// literals: flags are 0 and 1.)

function f(x) { return x + 1; }

function redefine(flag, source) {
  if (flag == 1) {
    println("redefining");
    defineFunction(source);
  }
  return 10;
}

function redefineTrue(flag, source) {
  return redefine(flag, source) == 10;
}

function asStatement(flag, s) { redefine(flag, s); return f(1); }
function asAssignment(flag, s) { x = redefine(flag, s); return x + f(1); }
function asLeftOperand(flag, s) { return redefine(flag, s) + f(1); }
function asRightOperand(flag, s) { return f(1) * 1000 + redefine(flag, s) + f(2); }
function asCondition(flag, s) { if (redefineTrue(flag, s)) { return f(1); } return 0; }
function asLoopCondition(flag, s) {
  n = 0;
  while (redefineTrue(flag, s) && n < 2) { n = n + f(1); flag = 0; }
  return n;
}
function asArgument(flag, s) { return f(redefine(flag, s)); }
function asNestedArgument(flag, s) { return f(f(redefine(flag, s))); }
function asReturn(flag, s) { return redefine(flag, s); }
function afterReturn(flag, s) { return asReturn(flag, s) + f(1); }
function asProperty(flag, s) {
  o = new();
  o.x = redefine(flag, s);
  return o.x + f(1);
}

function warm() {
  i = 0;
  while (i < 30) {
    asStatement(0, "");
    asAssignment(0, "");
    asLeftOperand(0, "");
    asRightOperand(0, "");
    asCondition(0, "");
    asLoopCondition(0, "");
    asArgument(0, "");
    asNestedArgument(0, "");
    afterReturn(0, "");
    asProperty(0, "");
    i = i + 1;
  }
}

function main() {
  warm();
  println(asStatement(1, "function f(x) { return x * 2; }"));
  warm();
  println(asAssignment(1, "function f(x) { return x * 3; }"));
  warm();
  println(asLeftOperand(1, "function f(x) { return x * 4; }"));
  warm();
  println(asRightOperand(1, "function f(x) { return x * 5; }"));
  warm();
  println(asCondition(1, "function f(x) { return x * 6; }"));
  warm();
  println(asLoopCondition(1, "function f(x) { return x * 7; }"));
  warm();
  println(asArgument(1, "function f(x) { return x * 8; }"));
  warm();
  println(asNestedArgument(1, "function f(x) { return x * 9; }"));
  warm();
  println(afterReturn(1, "function f(x) { return x * 11; }"));
  warm();
  println(asProperty(1, "function f(x) { return x * 12; }"));
}
