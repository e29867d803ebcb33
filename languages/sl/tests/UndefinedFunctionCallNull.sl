function nothing() {
}

function main() {
  x = nothing();
  x(1);
}
