function main() {
  o = new();
  o.x = 1;
  println(o.x);
  println(o.y);
}
