// Property reads and writes in hot functions through every cache state:
// monomorphic, polymorphic (up to 3 shapes), generic (more shapes), objects
// in dictionary mode (more than 32 properties), computed and numeric keys.
function getX(o) { return o.x; }
function setX(o, v) { o.x = v; return o; }
function get(o, k) { return o[k]; }
function put(o, k, v) { o[k] = v; }
function shaped(n) {
  o = new();
  if (n == 1) { o.a = 1; }
  if (n == 2) { o.b = 2; o.c = 3; }
  if (n == 3) { o.d = 4; }
  if (n == 4) { o.e = 5; }
  if (n == 5) { o.f = 6; o.g = 7; }
  o.x = n;
  return o;
}
function dictionary() {
  o = new();
  i = 0;
  while (i < 40) { o["p" + i] = i; i = i + 1; }
  return o;
}
function main() {
  mono = new();
  mono.x = 0;
  i = 0;
  s = 0;
  while (i < 30) {
    setX(mono, getX(mono) + i);
    i = i + 1;
  }
  println(getX(mono));
  i = 0;
  while (i < 30) {
    o = shaped(i - (i / 6) * 6);
    s = s + getX(o) + getX(setX(o, i));
    i = i + 1;
  }
  println(s);
  d = dictionary();
  i = 0;
  s = 0;
  while (i < 80) {
    k = "p" + (i - (i / 40) * 40);
    put(d, k, get(d, k) + 1);
    s = s + get(d, k);
    i = i + 1;
  }
  println(s);
  println(d.p0 + d.p39);
  n = new();
  i = 0;
  while (i < 20) {
    put(n, i - (i / 4) * 4, i);
    i = i + 1;
  }
  println(get(n, "0") + get(n, 1) + get(n, "2") + get(n, 3));
  put(n, 1 == 1, "t");
  println(get(n, "true"));
  f = new();
  put(f, "fn", getX);
  println(get(f, "fn")(mono));
}
