function main() {
  max = 9223372036854775807;
  println(max + 1);
  println(max + max);
  min = 0 - max - 1;
  println(min);
  println(min - 1);
  println(3000000000000 * 4000000000000);
  println(min / (0 - 1));
  println(min * (0 - 1));
  println(0 - min);
  println(4294967296 * 4294967296);
  println(max + 1 - 1);
  println(max + 1 - 1 == max);
  println(9223372036854775808 - 1 < max);
}
