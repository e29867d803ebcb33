function main() {
  return -1;
}
