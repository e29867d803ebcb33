function main() {
  return println;
}
