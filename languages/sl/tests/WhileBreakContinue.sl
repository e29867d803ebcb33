function main() {
  i = 0;
  sum = 0;
  while (1 == 1) {
    i = i + 1;
    if (i > 10) {
      break;
    }
    if (i == 3) {
      continue;
    }
    sum = sum + i;
  }
  println(sum);
  outer = 0;
  while (outer < 3) {
    inner = 0;
    while (1 == 1) {
      inner = inner + 1;
      if (inner < 2) {
        continue;
      }
      break;
    }
    println("outer " + outer + " inner " + inner);
    outer = outer + 1;
  }
  while (1 == 2) {
    println("never");
  }
  println("done");
}
