function nothing() {
}

function main() {
  x = 6;
  y = x * nothing();
}
