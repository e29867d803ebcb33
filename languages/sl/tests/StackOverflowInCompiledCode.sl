// Recursion far deeper than the guest stack. With compiled code the calls
// go from compiled code to compiled code, the overflow is found by the
// prologue stack check, and it is reported as the interpreter reports it.
function depth(n) {
  if (n == 0) {
    return 0;
  }
  return depth(n - 1) + 1;
}

function main() {
  println(depth(2000));
  println(depth(100000000));
  println("unreachable");
}
