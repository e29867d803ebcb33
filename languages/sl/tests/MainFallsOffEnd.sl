function nothing() {
}

function early(x) {
  if (x == 1) {
    return;
  }
  return "late";
}

function main() {
  println(nothing());
  println(early(1));
  println(early(2));
}
