function nothing() {
}

function main() {
  number = typeOf(1);
  string = typeOf("s");
  boolean = typeOf(1 == 1);
  fn = typeOf(main);
  object = typeOf(new());
  null = typeOf(nothing());
  println(isInstance(number, 5));
  println(isInstance(number, "5"));
  println(isInstance(number, 9223372036854775808));
  println(isInstance(string, "5"));
  println(isInstance(string, 5));
  println(isInstance(boolean, 1 < 2));
  println(isInstance(boolean, 1));
  println(isInstance(fn, println));
  println(isInstance(fn, undefinedFn));
  println(isInstance(fn, 1));
  println(isInstance(object, new()));
  println(isInstance(object, 1));
  println(isInstance(null, nothing()));
  println(isInstance(null, 0));
  println(isInstance(number));
}
