function main() {
  println((1 + 2) * "x");
}
