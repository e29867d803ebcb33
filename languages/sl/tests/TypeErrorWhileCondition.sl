function main() {
  i = 3;
  while (i) {
    i = i - 1;
  }
}
