function main() {
  if (1 == 1) x = 1;
}
