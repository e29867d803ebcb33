function main() {
  y = 1 == 1;
  x = !y;
}
