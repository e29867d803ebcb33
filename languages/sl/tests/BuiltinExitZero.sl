function main() {
  println("a");
  exit(0);
  println("b");
}
