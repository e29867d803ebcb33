function f() {
}

function main() {
  f() = 1;
}
