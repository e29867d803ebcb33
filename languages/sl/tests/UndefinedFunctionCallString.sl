function main() {
  s = "text";
  s();
}
