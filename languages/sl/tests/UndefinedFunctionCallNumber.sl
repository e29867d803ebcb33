function main() {
  f = 5;
  f();
}
