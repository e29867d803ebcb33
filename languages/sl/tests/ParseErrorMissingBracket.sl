function main() {
  a[1;
}
