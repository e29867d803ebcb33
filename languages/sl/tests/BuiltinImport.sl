function main() {
  println(import("anything"));
  println(isNull(import("x")));
}
