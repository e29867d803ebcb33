function down(n) {
  return down(n + 1) + 1;
}

function main() {
  println("start");
  down(0);
  println("unreachable");
}
