function null() {
}

function main() {
  o = new();
  o.name = "box";
  o.size = 3;
  println(o.name + " " + o.size);
  o.size = o.size + 1;
  println(o.size);
  o["size"] = 10;
  println(o.size);
  o[1] = "one";
  println(o["1"]);
  o["2"] = "two";
  println(o[2]);
  o[1 == 1] = "boolean key";
  println(o.true);
  o[null()] = "null key";
  println(o.NULL);
  o[println] = "function key";
  println(o.println);
  o[9223372036854775808] = "big key";
  println(o["9223372036854775808"]);
  o[0 - 1] = "negative key";
  println(o["-1"]);
  println(o.x = "assignment value");
  println(o["x"]);
}
