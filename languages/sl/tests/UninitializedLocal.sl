function main() {
  println("before");
  println(x);
  x = 1;
}
