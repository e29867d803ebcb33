function main() {
  s = "str";
  s.len = 3;
}
