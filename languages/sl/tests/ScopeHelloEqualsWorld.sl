function noHello() {
  other = 1;
  return helloEqualsWorld();
}

function main() {
  hello = "hello";
  println(hello);
  r = helloEqualsWorld();
  println(hello);
  println(r);
  println(noHello());
}
