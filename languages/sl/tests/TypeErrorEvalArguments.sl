function main() {
  eval("sl", 42, "ignored");
}
