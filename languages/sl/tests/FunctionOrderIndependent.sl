function main() {
  return later(20);
}

function later(x) {
  return evenLater(x) + 1;
}

function evenLater(x) {
  return x * 2;
}
