// helloEqualsWorld writes local `hello` of its caller. Called directly from
// hot functions that run compiled code: each activation continues in the
// interpreter right before the call (the code stays installed), so the
// write lands in a real frame and everything after the call -- the rest of
// the function, a loop around the call, a stacktrace() of the written
// frame -- sees it, exactly as in the interpreter.
function set(n) {
  hello = n;
  before = n * 2;
  r = helloEqualsWorld();
  return hello + " " + r + " " + before;
}
function inLoop(n) {
  hello = 0;
  i = 0;
  s = "";
  while (i < n) {
    hello = i;
    if (i == n - 1) { helloEqualsWorld(); }
    s = s + hello + ",";
    i = i + 1;
  }
  return s;
}
function trace(n) {
  hello = n;
  helloEqualsWorld();
  return stacktrace();
}
function outer(n) { x = n + 1; return set(x); }
function main() {
  i = 0;
  last = "";
  while (i < 30) {
    last = outer(i) + " | " + inLoop(3) + " | " + set(i);
    i = i + 1;
  }
  println(last);
  println(outer(100));
  println(inLoop(5));
  println(trace(7));
}
