// a = f() + g(...): when g's result changes type, compiled code that
// speculated on numbers must resume after both calls, without calling them
// again (run by the compiled-mode conformance tests too).
function f() {
  println("f");
  return 1;
}

function g(numeric) {
  println("g");
  if (numeric) {
    return 2;
  }
  return "two";
}

function step(i) {
  a = f() + g(i < 3);
  println(a);
}

function main() {
  i = 0;
  while (i < 5) {
    step(i);
    i = i + 1;
  }
}
