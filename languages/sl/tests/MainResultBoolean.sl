function main() {
  return 1 < 2;
}
