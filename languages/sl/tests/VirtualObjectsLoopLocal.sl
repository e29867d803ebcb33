// A record assigned to a local in every iteration of a loop and unassigned
// before the loop: escape analysis keeps the previous iteration's record
// virtual at the loop header (its fields are loop variables), so compiled
// walk() allocates nothing. walk() is compiled while `i == k` is never
// true, so reading the previous record there deoptimizes, and the
// deoptimization must allocate that record with the fields it had. In the
// last call the read comes in the first iteration, before p was assigned:
// the interpreter must find p unassigned, as it would without compiling.
function walk(n, k) {
  i = 0;
  s = 0;
  while (i < n) {
    if (i == k) {
      s = s + p.x * 1000 + p.y;
    }
    p = new();
    p.x = i;
    p.y = i * 2;
    s = s + p.x + p.y;
    i = i + 1;
  }
  return s;
}

function main() {
  j = 0;
  while (j < 3000) {
    walk(50, 1000);
    j = j + 1;
  }
  println(walk(50, 1000));
  println(walk(10, 5));
  println(walk(10, 7));
  println(walk(10, 0));
}
