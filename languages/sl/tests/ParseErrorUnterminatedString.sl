function main() {
  println("abc);
}
