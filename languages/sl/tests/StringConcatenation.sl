function foo() {
}

function null() {
}

function main() {
  println("a" + "b");
  println(3 + "4");
  println("4" + 3);
  println("n" + (0 - 12));
  println("big " + 9223372036854775808);
  println("b" + (1 == 1));
  println((1 == 2) + "b");
  println("s" + null());
  println(null() + "s");
  println("s" + null);
  println("s" + foo);
  println("s" + println);
  println("s" + undefinedFunction);
  println("x" + new());
  println(new() + "x");
  println("t" + typeOf(1));
  println(1 + 2 + "3");
  println("1" + 2 + 3);
  println("1" + (2 + 3));
  println("" + "");
  println("x" + "");
}
