function main() {
  return }
}
