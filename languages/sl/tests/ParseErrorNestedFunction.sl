function main() {
  function inner() {
  }
}
