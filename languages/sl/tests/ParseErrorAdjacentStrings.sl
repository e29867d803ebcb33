function main() {
  x = "a" "b";
}
