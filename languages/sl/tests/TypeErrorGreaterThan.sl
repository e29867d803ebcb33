function main() {
  x = "10";
  if (x > 5) {
    println("big");
  }
}
