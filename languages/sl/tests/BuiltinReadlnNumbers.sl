function main() {
  a = readln();
  b = readln();
  println(a + b);
  println(a == "12");
}
