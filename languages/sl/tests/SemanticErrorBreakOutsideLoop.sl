function main() {
  println("not printed: errors are found before anything runs");
  if (1 == 1) {
    break;
  }
}
