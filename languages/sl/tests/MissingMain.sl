function helper() {
  println("never called");
}
