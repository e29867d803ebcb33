// A cached property read in a hot function, then a receiver that is not an
// object: the interpreter's error (the cache's shape check must not read
// through a non-object).
function getX(o) { return o.x; }
function main() {
  o = new();
  o.x = 1;
  i = 0;
  s = 0;
  while (i < 30) { s = s + getX(o); i = i + 1; }
  println(s);
  println(getX(3));
}
