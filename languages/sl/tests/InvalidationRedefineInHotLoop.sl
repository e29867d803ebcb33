// A hot, compiled loop calls f directly. Mid-loop it redefines f (through
// defineFunction or eval). Compiled code that called the old f directly
// must be invalidated, including the activation that is running the loop:
// after the redefining call returns, the rest of the loop calls the new f.

function f(x) { return x + 1; }

function run(n, at, source) {
  i = 0;
  sum = 0;
  while (i < n) {
    if (i == at) {
      defineFunction(source);
    }
    sum = sum + f(i);
    i = i + 1;
  }
  return sum;
}

function runEval(n, at, source) {
  i = 0;
  sum = 0;
  while (i < n) {
    if (i == at) {
      eval("sl", source);
    }
    sum = sum + f(i);
    i = i + 1;
  }
  return sum;
}

function main() {
  k = 0;
  while (k < 30) {
    run(20, 7, "function other() { return 1; }");
    runEval(20, 7, "function other() { return 2; }");
    k = k + 1;
  }
  println(run(10, 5, "function f(x) { return x * 100; }"));
  println(f(3));
  println(runEval(10, 4, "function f(x) { return x * 1000; }"));
  println(f(3));
  // Redefine on every iteration: the loop never runs stale code.
  println(run(10, 0, "function f(x) { return 0 - x; }"));
  k = 0;
  total = 0;
  while (k < 6) {
    defineFunction("function f(x) { return x + " + k + "; }");
    total = total + run(5, 2, "function f(x) { return x * " + k + "; }");
    k = k + 1;
  }
  println(total);
}
