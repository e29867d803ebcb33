function main() {
  println("before");
  x = 1 == 1;
  println(x + 1);
}
