function main() {
  x = 1
  y = 2;
}
