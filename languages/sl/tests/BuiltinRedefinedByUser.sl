function nanoTime() {
  return 12345;
}

function main() {
  println(nanoTime());
}
