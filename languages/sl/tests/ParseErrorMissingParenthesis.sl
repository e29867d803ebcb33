function main() {
  x = (1 + 2;
}
