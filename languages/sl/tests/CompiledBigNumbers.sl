// Arithmetic in hot functions that overflows 64 bits into big numbers and
// comes back: + - * / and comparisons, with small and big operands mixed.
function mul(a, b) { return a * b; }
function add(a, b) { return a + b; }
function sub(a, b) { return a - b; }
function div(a, b) { return a / b; }
function less(a, b) { return a < b; }
function lessEq(a, b) { return a <= b; }
function poly(x) { return x * x * x - 2 * x + 1; }
function main() {
  max = 9223372036854775807;
  i = 0;
  s = 0;
  c = 0;
  while (i < 40) {
    big = mul(max, i + 1);
    back = div(big, i + 1);
    s = add(s, sub(back, max));
    if (less(big, add(big, 1)) && lessEq(back, max)) { c = c + 1; }
    s = add(s, poly(i * 100000000));
    i = i + 1;
  }
  println(s);
  println(c);
  println(mul(max, max));
  println(add(max, 1));
  println(sub(0 - max, 2));
  println(div(mul(max, max), max));
  println(sub(add(max, 1), 1));
  println(less(add(max, 1), max));
  println(lessEq(max, max));
  println(poly(123456789012345678901234567890));
}
