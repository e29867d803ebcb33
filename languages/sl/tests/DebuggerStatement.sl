function main() {
  debugger;
  x = 1;
  debugger;
  while (x < 3) {
    debugger;
    x = x + 1;
  }
  println(x);
}
