function main() {
  i = 0;
  while (i < 8) {
    println("[" + readln() + "]");
    i = i + 1;
  }
  n = readln();
  println(typeOf(n));
}
