function main() {
  x = 5;
  println(x.field);
}
