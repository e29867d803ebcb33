function nothing() {
}

function main() {
  println(isExecutable(main));
  println(isExecutable(println));
  println(isExecutable(neverDefined));
  println(isExecutable(1));
  println(isExecutable("main"));
  println(isExecutable(new()));
  println(isNull(nothing()));
  println(isNull(0));
  println(isNull(""));
  println(isNull(null));
  println(isNull());
  println(hasSize(1));
  println(hasSize("abc"));
  println(hasSize(new()));
}
