function main() {
  a = 123456789012345678901234567890;
  b = 987654321098765432109876543210;
  println(a + b);
  println(a - b);
  println(a * b);
  println(b / a);
  println((0 - b) / a);
  println(b / (0 - 7));
  println(a / b);
  println(a * a / a == a);
  println(b - b);
}
