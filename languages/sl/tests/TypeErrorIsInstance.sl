function main() {
  isInstance(1, 2);
}
