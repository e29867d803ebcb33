function main() {
  a = "a";
  b = "b";
  println("compare: " + (a < b));
}
