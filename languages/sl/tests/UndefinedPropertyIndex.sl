function main() {
  o = new();
  o[1] = "one";
  println(o[3 - 2]);
  println(o[1 + 1]);
}
