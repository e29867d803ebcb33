function main() {
  f = 5;
  f(println("argument evaluated"));
}
