function main() {
  return "the " + "result";
}
