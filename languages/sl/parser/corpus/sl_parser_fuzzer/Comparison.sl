function main() {
  println(1 < 2);
  println(2 < 1);
  println(2 < 2);
  println(2 <= 2);
  println(3 <= 2);
  println(3 > 2);
  println(2 > 2);
  println(2 >= 2);
  println(1 >= 2);
  println(0 - 5 < 0 - 4);
  println(1 + 2 < 2 * 2);
}
