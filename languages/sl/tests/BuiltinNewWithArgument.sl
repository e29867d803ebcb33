function main() {
  println("before");
  p = new("Point");
}
