function main() {
  if (1 == 1) {
    x = 1;
    println(x);
  }
  println(x);
}
