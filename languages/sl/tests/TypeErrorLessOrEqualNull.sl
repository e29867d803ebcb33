function nothing() {
}

function main() {
  n = nothing();
  return 1 <= n;
}
