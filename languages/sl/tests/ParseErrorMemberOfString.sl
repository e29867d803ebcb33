function main() {
  "abc".x;
}
