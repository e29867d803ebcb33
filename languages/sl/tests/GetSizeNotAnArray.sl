function main() {
  println(hasSize(new()));
  getSize(new());
}
