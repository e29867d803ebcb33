function main() {
  if (1 == 1) {
  } else if (1 == 2) {
  }
}
