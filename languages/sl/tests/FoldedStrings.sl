// Concatenations and string comparisons of constants, which compiled code
// computes while compiling (CallFoldable): work() inlines join() and same()
// with constant arguments. The results must be the interpreter's: equal
// strings, the same text, the number's digits; a folded string outlives the
// code that made it (kept in an object across many collections).

function join(a, b) { return a + b; }
function same(a, b) { return a == b; }

function work(n, box) {
  hits = 0;
  i = 0;
  while (i < n) {
    if (same(join("ab", "cd"), "abcd")) { hits = hits + 1; }
    if (join("x", 42) == "x42") { hits = hits + 10; }
    if (join(0 - 7, "y") == "-7y") { hits = hits + 100; }
    if (join("ab", "cd") == "abce") { hits = hits + 1000; }
    if (join("", "") == "") { hits = hits + 10000; }
    box.last = join(join("fo", "ld"), 123456789012);
    i = i + 1;
  }
  return hits;
}

function churn(n) {
  i = 0;
  s = "";
  while (i < n) {
    s = "garbage " + i;
    i = i + 1;
  }
  return s;
}

function main() {
  box = new();
  hits = 0;
  i = 0;
  while (i < 40) {
    hits = work(500, box);
    i = i + 1;
  }
  println(hits);
  println(box.last);
  churn(300000);
  println(box.last);
  println(box.last == "fold123456789012");
  // Not constants of a string and a number: not folded, still right.
  println(join("t", true) + join(null, "n") + join(box, "") + join(2, 3));
}
