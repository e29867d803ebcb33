function main() {
  x = 42 = 43;
}
