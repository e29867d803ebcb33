function main() {
  println("a\nb\t\\");
  println("ends with a backslash\");
  println("");
  println("it's 100% fine");
  println("héllo wörld ✓");
  println("function while if return");
  println("   spaces kept   ");
}
