function main() {
  println("a");
  println((1 > 2) || 4);
}
