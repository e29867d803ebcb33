function setX(o, v) {
  o.x = v;
}

function main() {
  a = new();
  b = a;
  setX(b, 5);
  println(a.x);
  c = new();
  c.x = 5;
  println(a == c);
  println(a.x == c.x);
  a.x = "changed";
  println(b.x);
}
