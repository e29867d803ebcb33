// Compiled code holds guest objects (an object, strings, a big number) in
// locals that nothing else references while the loops allocate enough to
// trigger collections: the objects must survive (the IR tier keeps its
// values where the collector sees them).
function churn(n) {
  o = new();
  o.a = "head" + n;
  o.b = 12345678901234567890123 * n;
  big = 98765432109876543210987 + n;
  s = "";
  t = "<";
  i = 0;
  while (i < n) {
    s = s + i;
    junk = new();
    junk.x = s + "!";
    swap = s;
    s = t;
    t = swap;
    i = i + 1;
  }
  return o.a + "/" + o.b + "/" + big + "/" + s + "/" + t;
}
function main() {
  k = 0;
  same = 0;
  last = "";
  while (k < 150) {
    r = churn(300);
    if (r == last) { same = same + 1; }
    last = r;
    k = k + 1;
  }
  println(churn(12));
  println(same);
}
