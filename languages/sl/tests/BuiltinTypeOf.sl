function nothing() {
}

function main() {
  println(typeOf(0));
  println(typeOf(9223372036854775808));
  println(typeOf(""));
  println(typeOf(1 < 2));
  println(typeOf(main));
  println(typeOf(neverDefined));
  println(typeOf(new()));
  println(typeOf(nothing()));
  println(typeOf());
  println(isNull(typeOf(typeOf(1))));
}
