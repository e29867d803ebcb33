function main() {
  x = 9223372036854775808;
  y = x / (5 - 5);
}
