function main() {
  println(1 + 2);
  println(10 - 3);
  println(3 - 10);
  println(6 * 7);
  println(7 / 2);
  println(0 - 7 / 2);
  println((0 - 7) / 2);
  println(7 / (0 - 2));
  println((0 - 7) / (0 - 2));
  println(2 + 3 * 4);
  println((2 + 3) * 4);
  println(10 - 4 - 3);
  println(100 / 10 / 5);
  println(2 * 3 / 4 * 5);
  println(0 - 0);
}
