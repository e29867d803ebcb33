function main() {
  return "abc" - 1;
}
