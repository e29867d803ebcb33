function classify(n) {
  if (n < 0) {
    return "negative";
  } else {
    if (n == 0) {
      return "zero";
    } else {
      return "positive";
    }
  }
}

function main() {
  println(classify(0 - 5));
  println(classify(0));
  println(classify(5));
  if (1 == 2) {
    println("not printed");
  }
  if (1 == 1) {
  } else {
    println("not printed");
  }
  println("done");
}
