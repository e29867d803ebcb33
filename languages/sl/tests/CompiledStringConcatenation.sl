// String concatenation and string equality in hot functions: every operand
// type on either side of `+`, ropes, and == on equal contents.
function concat(a, b) { return a + b; }
function label(i) {
  s = "v" + i;
  t = i + "w";
  return s + "/" + t + "/" + (i == 3) + "/" + null;
}
function same(a, b) { return a == b; }
function describe(x) { return "<" + x + ">"; }
function main() {
  i = 0;
  last = "";
  hits = 0;
  while (i < 40) {
    last = label(i);
    if (same(concat("v", i), "v7")) { hits = hits + 1; }
    if (same(concat(i, "") + "", "12")) { hits = hits + 10; }
    i = i + 1;
  }
  println(last);
  println(hits);
  println(concat(1, 2));
  println(concat("a", 1));
  println(concat(1, "b"));
  println(concat(1 == 1, "!"));
  println(concat("x", 123456789012345678901234567890));
  o = new();
  o.k = 1;
  println(describe(o));
  println(describe(describe));
  println(describe(null));
  println(describe(typeOf(o)));
  println(same("ab" + "cd", "a" + "bcd"));
  println(same("ab", "ab "));
}
