function main() {
  defineFunction(3);
}
