function main() {
  return 9223372036854775807 * 10;
}
