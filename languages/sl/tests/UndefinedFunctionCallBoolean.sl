function main() {
  f = 1 < 2;
  f();
}
