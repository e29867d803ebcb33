// A speculation inside a callee inlined into a loop's OSR code fails: the
// multiplication in scale() overflows to a big number from i = 184468 on,
// after the loop is OSR-compiled. The interpreter resumes scale()'s frame,
// then step()'s, then the loop's, with every local as it was.
function scale(x, k) { y = x * k; return y + 1; }
function step(x, i) { z = scale(x, 50000000000000); return z - i; }
function main() {
  i = 0; s = 0; obj = new(); obj.n = 0;
  while (i < 200000) {
    s = s + step(i, i);
    obj.n = obj.n + 1;
    i = i + 1;
  }
  println(s);
  println(obj.n);
}
