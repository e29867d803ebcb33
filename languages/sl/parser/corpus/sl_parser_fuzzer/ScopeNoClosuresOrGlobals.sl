function peek() {
  return secret;
}

function modify(p) {
  p = p + 1;
  return p;
}

function main() {
  secret = 42;
  println(peek());
  v = 1;
  println(modify(v));
  println(v);
}
