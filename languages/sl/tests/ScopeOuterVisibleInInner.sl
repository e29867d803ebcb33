function main() {
  count = 0;
  i = 0;
  while (i < 3) {
    count = count + 10;
    i = i + 1;
  }
  println(count);
  if (1 == 1) {
    count = "changed in if";
  }
  println(count);
}
