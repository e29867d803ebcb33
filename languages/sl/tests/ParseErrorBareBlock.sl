function main() {
  { x = 1; }
}
