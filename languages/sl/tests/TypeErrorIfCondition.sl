function main() {
  if ("true") {
    println("no");
  }
}
