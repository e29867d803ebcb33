function main() {
  exit("3");
}
