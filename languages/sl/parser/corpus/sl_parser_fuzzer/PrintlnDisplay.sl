function foo() {
}

function main() {
  println(42);
  println(0 - 42);
  println("text");
  println(1 == 1);
  println(1 != 1);
  println(foo);
  println(println);
  println(undefinedName);
  println(new());
  println(foo());
  println(typeOf(1));
  println(typeOf("s"));
  println(typeOf(1 == 1));
  println(typeOf(foo));
  println(typeOf(new()));
  println(typeOf(foo()));
}
