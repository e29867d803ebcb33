function helper() {
  continue;
}

function main() {
  while (1 == 1) {
    helper();
  }
}
