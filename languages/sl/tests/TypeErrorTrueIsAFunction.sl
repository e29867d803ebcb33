function main() {
  println("start");
  if (true) {
    println("unreachable");
  }
}
