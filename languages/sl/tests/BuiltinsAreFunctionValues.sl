function main() {
  println(typeOf(println));
  println("x" + println);
  println(println == println);
  p = println;
  p("called through a local");
  o = new();
  o.out = println;
  o.out("called through a property");
}
