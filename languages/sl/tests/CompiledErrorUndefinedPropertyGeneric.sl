// A generic (megamorphic) property read in a hot function that finds no
// such property.
function get(o, k) { return o[k]; }
function main() {
  o = new();
  o.a = 1; o.b = 2; o.c = 3; o.d = 4;
  i = 0;
  s = 0;
  while (i < 30) {
    r = i - (i / 4) * 4;
    k = "a";
    if (r == 1) { k = "b"; }
    if (r == 2) { k = "c"; }
    if (r == 3) { k = "d"; }
    s = s + get(o, k);
    i = i + 1;
  }
  println(s);
  println(get(o, "e"));
}
