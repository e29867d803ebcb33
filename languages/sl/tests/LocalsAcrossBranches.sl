// A parameter reassigned from a block-local in one branch of an if inside a
// loop: each branch must start from the locals before the if (a compiled-
// code regression: the else branch once saw the then branch's assignment).
function collatz(n) {
  s = 0;
  while (n > 1) {
    h = n / 2;
    if (n - h * 2 == 0) {
      n = h;
    } else {
      n = n * 3 + 1;
    }
    s = s + 1;
  }
  return s;
}

function pick(flag, a) {
  if (flag) {
    a = a + 100;
  } else {
    a = a - 1;
  }
  return a;
}

function main() {
  i = 1;
  total = 0;
  while (i <= 30) {
    total = total + collatz(i);
    i = i + 1;
  }
  println(collatz(27));
  println(total);
  println(pick(1 == 1, 5) + " " + pick(1 == 2, 5));
  b = 0;
  c = (1 == 2) || (b = 7) == 7;
  println(c + " " + b);
}
