function main() {
  while (1 == 1) {
    o = new();
    o.f(1) = 2;
  }
  break;
}
