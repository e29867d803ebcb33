// An indirect call site in a hot function whose callee is sometimes
// stacktrace or helloEqualsWorld (builtins that read their caller's frame):
// the output is the interpreter's in every mode.
function a() { return "a"; }
function b() { return "b"; }
function c() { return "c"; }
function call(f) { hello = "hello"; r = f(); return r + " " + hello; }
function main() {
  i = 0;
  while (i < 12) {
    r = i - (i / 5) * 5;
    f = a;
    if (r == 1) { f = b; }
    if (r == 2) { f = c; }
    if (r == 3) { f = stacktrace; }
    if (r == 4) { f = helloEqualsWorld; }
    println(call(f));
    i = i + 1;
  }
}
