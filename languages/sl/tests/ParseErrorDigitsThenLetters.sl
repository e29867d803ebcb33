function main() {
  x = 1abc;
}
