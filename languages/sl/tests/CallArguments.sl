function three(a, b, c) {
  println(a + " " + b + " " + c);
}

function none() {
  return "none";
}

function main() {
  three(1, 2, 3);
  three(1, 2);
  three(1);
  three();
  println(none(1, 2, 3));
  three(1, 2, 3, println("extra argument evaluated"));
}
