function main() {
  println(new() >= 1);
}
