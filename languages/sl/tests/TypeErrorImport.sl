function main() {
  import(1);
}
