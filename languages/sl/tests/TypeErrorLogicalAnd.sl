function main() {
  x = "4" && 4;
}
