function find(limit) {
  i = 0;
  while (1 == 1) {
    while (1 == 1) {
      if (i * i > limit) {
        return i;
      }
      i = i + 1;
    }
  }
}

function main() {
  println(find(50));
  println(find(0));
}
