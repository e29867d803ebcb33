function main() {
  x = 1 == 2 || 2 == 3 || "s";
}
