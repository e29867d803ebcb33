// Hot functions with 3, 5 and 7 parameters, called from compiled code with
// every number of arguments from 0 to 7 (missing ones are NULL, extra ones
// are evaluated and dropped), with numbers, strings and booleans.
function weigh3(a, b, c) {
  return a + b * 2 + c * 3;
}

function mix5(a, b, c, d, e) {
  return weigh3(a, b, c) - weigh3(c, d, e) + e;
}

function rotate7(n, a, b, c, d, e, f) {
  if (n == 0) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6;
  }
  return rotate7(n - 1, f, a, b, c, d, e);
}

function join3(a, b, c) {
  return a + "|" + b + "|" + c;
}

function show(a, b, c, d, e, f, g) {
  return a + " " + b + " " + c + " " + d + " " + e + " " + f + " " + g;
}

function counts(i) {
  r = "";
  if (i == 0) { r = show(); }
  if (i == 1) { r = show(1); }
  if (i == 2) { r = show(1, "two"); }
  if (i == 3) { r = show(1, "two", true); }
  if (i == 4) { r = show(1, "two", true, 4); }
  if (i == 5) { r = show(1, "two", true, 4, 5); }
  if (i == 6) { r = show(1, "two", true, 4, 5, 6); }
  if (i == 7) { r = show(1, "two", true, 4, 5, 6, 7); }
  if (i == 8) { r = show(1, "two", true, 4, 5, 6, 7, 8); }
  return r;
}

function main() {
  sum = 0;
  i = 0;
  while (i < 3000) {
    sum = sum + mix5(i, i + 1, i + 2, i + 3, i + 4) + weigh3(i, 1, 2) + rotate7(i - (i / 10) * 10, i, 1, 2, 3, 4, 5);
    i = i + 1;
  }
  println(sum);
  println(join3("a", 2, false));
  println(mix5(1, 2, 3, 4, 5));
  println(rotate7(13, 1, 2, 3, 4, 5, 6));
  i = 0;
  while (i < 9) {
    println(counts(i));
    i = i + 1;
  }
  j = 0;
  while (j < 3000) {
    counts(j - (j / 9) * 9);
    j = j + 1;
  }
  println(counts(3));
  println(join3("x", "y"));
}
