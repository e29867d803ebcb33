function null() {
}

function main() {
  println("only this line");
  return null();
}
