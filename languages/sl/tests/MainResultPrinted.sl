function main() {
  println("computing");
  return 40 + 2;
}
