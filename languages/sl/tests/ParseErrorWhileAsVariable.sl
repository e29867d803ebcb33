function main() {
  while = 1;
}
