function main() {
  if 1 == 1 {
  }
}
