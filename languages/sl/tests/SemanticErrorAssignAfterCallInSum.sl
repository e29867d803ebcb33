function double(x) {
  return x * 2;
}

function main() {
  y = 5 + double(2) = (4);
}
