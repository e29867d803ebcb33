function main() {
  println(6 / 3);
  println(1 / 0);
}
