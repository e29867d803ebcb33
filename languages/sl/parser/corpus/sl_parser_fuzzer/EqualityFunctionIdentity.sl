function same(a, b) {
  return a == b;
}

function main() {
  println(same(same, same));
  println(println == println);
  x = notDefinedYet;
  println(x == notDefinedYet);
  o = new();
  o.fn = same;
  println(o.fn == same);
  println(same(o, o));
}
