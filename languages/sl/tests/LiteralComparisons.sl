// Comparisons of two number literals: the builders fold those that fit in
// 64 bits into constants (SL's `1 == 1` for true). Each line prints the
// folded comparison and the same comparison computed from locals at run
// time; every pair agrees. Literals longer than 18 digits, and big
// numbers, are not folded.
function check(name, folded, a, b, op) {
  computed = 0;
  if (op == 0) { computed = a < b; }
  if (op == 1) { computed = a <= b; }
  if (op == 2) { computed = a > b; }
  if (op == 3) { computed = a >= b; }
  if (op == 4) { computed = a == b; }
  if (op == 5) { computed = a != b; }
  println(name + " " + folded + " " + computed);
}

function main() {
  check("1<2", 1 < 2, 1, 2, 0);
  check("2<1", 2 < 1, 2, 1, 0);
  check("2<=2", 2 <= 2, 2, 2, 1);
  check("3<=2", 3 <= 2, 3, 2, 1);
  check("3>2", 3 > 2, 3, 2, 2);
  check("2>2", 2 > 2, 2, 2, 2);
  check("2>=2", 2 >= 2, 2, 2, 3);
  check("1>=2", 1 >= 2, 1, 2, 3);
  check("1==1", 1 == 1, 1, 1, 4);
  check("1==2", 1 == 2, 1, 2, 4);
  check("1!=2", 1 != 2, 1, 2, 5);
  check("7!=7", 7 != 7, 7, 7, 5);
  check("(4)==(4)", (4) == ((4)), 4, 4, 4);
  check("max", 922337203685477580 < 922337203685477581, 922337203685477580, 922337203685477581, 0);
  check("19 digits", 9223372036854775807 == 9223372036854775807, 9223372036854775807, 9223372036854775807, 4);
  check("big", 9223372036854775808 > 9223372036854775807, 9223372036854775808, 9223372036854775807, 2);
  check("big==", 99999999999999999999 == 99999999999999999999, 99999999999999999999, 99999999999999999999, 4);
  // In conditions and loops.
  n = 0;
  while (1 == 1) {
    n = n + 1;
    if (n >= 3) { break; }
  }
  if (1 == 2) { println("never"); } else { println("else " + n); }
  while (1 > 2) { println("never"); }
  if ((1 == 2) == (1 == 2)) { println("folded operands"); }
  println(1 == 1 && 2 < 3);
  println(1 == 2 || 3 <= 2);
  flags = new();
  flags[0] = 1 == 1;
  flags[1] = 1 == 2;
  println(flags[0] + " " + flags[1]);
}
