function main() {
  registerShutdownHook(5);
}
