function main() {
  if (1 == 1) {
    a = -1;
  }
}
