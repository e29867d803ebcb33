function main() {
  println("exiting");
  exit();
}
