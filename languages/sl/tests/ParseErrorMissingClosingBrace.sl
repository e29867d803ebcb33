function main() {
  println(1);
