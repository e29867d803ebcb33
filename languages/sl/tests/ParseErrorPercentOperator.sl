function main() {
  x = 5 % 2;
}
