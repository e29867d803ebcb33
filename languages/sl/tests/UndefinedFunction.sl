function main() {
  println("before");
  notDefinedAnywhere(1, 2);
  println("after");
}
