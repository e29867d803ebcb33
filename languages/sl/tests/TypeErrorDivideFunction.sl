function main() {
  a = 10;
  b = a / main;
}
