function main() {
  y = 5 + x = 4;
  println(x);
  println(y);
  a = b = 3;
  println(a + b);
  println(c = "value");
  println(c);
  z = 1;
  z = z + 1;
  println(z);
  v = 1;
  println(v);
  v = "now a string";
  println(v);
  v = new();
  println(v);
  v = 1 == 1;
  println(v);
}
