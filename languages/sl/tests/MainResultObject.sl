function main() {
  o = new();
  o.x = 1;
  return o;
}
