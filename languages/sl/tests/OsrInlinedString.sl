// A callee inlined into a loop's OSR code meets a value of a new type (a
// string where it only saw longs): the OSR code deoptimizes inside it and
// the interpreter finishes the call and the loop.
function tag(v) { return v + 1; }
function main() {
  i = 0; s = 0; t = "";
  while (i < 300000) {
    if (i == 270000) { t = tag("s"); } else { s = s + tag(i); }
    i = i + 1;
  }
  println(s);
  println(t);
}
