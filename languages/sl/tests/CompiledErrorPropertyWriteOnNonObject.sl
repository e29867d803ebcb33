// A cached property write in a hot function, then a receiver that is not an
// object.
function setX(o, v) { o.x = v; }
function main() {
  o = new();
  i = 0;
  while (i < 30) { setX(o, i); i = i + 1; }
  println(o.x);
  setX("text", 1);
}
