function shadow() {
  true = 1 == 2;
  return true;
}

function main() {
  println(true);
  println(false);
  println(null);
  println("s" + null);
  println(isExecutable(true));
  println(typeOf(NULL));
  println(shadow());
  println(new);
}
