function main() {
  t = typeOf(1);
  println(t == t);
  println(t != t);
  println(typeOf(1) == typeOf(2));
  println(typeOf(1 == 1) == typeOf(1 == 2));
  println(t == 1);
  println(typeOf(t));
}
