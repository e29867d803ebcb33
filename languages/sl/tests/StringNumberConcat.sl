// String + number in both orders: the number's decimal text, including the
// extremes of 64-bit numbers and big numbers, with short (flat) and long
// (rope) strings on the other side.
function main() {
  println("a" + 5);
  println(5 + "a");
  println("" + 0);
  println(0 + "");
  println("min " + (0 - 9223372036854775807 - 1));
  println(9223372036854775807 + " max");
  println("big " + (9223372036854775807 + 1));
  long = "0123456789012345678901234567890123456789012345678901234567890123456789";
  println(long + (0 - 42));
  println((0 - 42) + long);
  s = "";
  i = 0;
  while (i < 30) { s = s + i; i = i + 1; }
  println(s);
  println(s == "01234567891011121314151617181920212223242526272829");
}
