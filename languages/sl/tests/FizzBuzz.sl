function divides(d, n) {
  return n - n / d * d == 0;
}

function main() {
  i = 1;
  while (i <= 15) {
    line = "";
    if (divides(3, i)) {
      line = line + "Fizz";
    }
    if (divides(5, i)) {
      line = line + "Buzz";
    }
    if (line == "") {
      line = i;
    }
    println(line);
    i = i + 1;
  }
}
