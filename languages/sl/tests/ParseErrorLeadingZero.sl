function main() {
  return 007;
}
