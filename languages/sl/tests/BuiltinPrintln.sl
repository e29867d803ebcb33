function main() {
  r = println("value");
  println(r);
  println();
  println("first", "second");
  println(println(1) + 1);
}
