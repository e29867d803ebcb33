function main() {
  big = 9223372036854775808;
  println(big > 9223372036854775807);
  println(9223372036854775807 < big);
  println(big == 9223372036854775807 + 1);
  println(big - 1 == 9223372036854775807);
  println(big != big + 0);
  println(0 - big < 0);
  println(big <= big);
  println(big >= big + 1);
  println(1 < big);
  println(big * big > big);
  println(big == "9223372036854775808");
  println(big - big == 0);
}
