function main() {
  if (1 == 1) {
    b = "first";
    println(b);
  }
  if (1 == 1) {
    b = "second";
    println(b);
  }
  println(b);
  while ((n = 2) == 3) {
  }
  println(n);
  if ((y = 3) == 3) {
    println(y + 1);
  }
  println(y);
  println(twice(k = 5) + k);
}

function twice(v) {
  return v * 2;
}
