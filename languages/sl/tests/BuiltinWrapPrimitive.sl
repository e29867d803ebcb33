function main() {
  w = wrapPrimitive(42);
  println(w);
  println(w + 1);
  println("v" + w);
  println(w == 42);
  println(typeOf(wrapPrimitive(1)));
  println(wrapPrimitive("s") + "t");
}
