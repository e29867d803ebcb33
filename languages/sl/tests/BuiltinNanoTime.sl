function main() {
  t1 = nanoTime();
  i = 0;
  while (i < 1000) {
    i = i + 1;
  }
  t2 = nanoTime();
  println(typeOf(t1));
  println(t2 >= t1);
  println(isInstance(typeOf(1), t2));
}
