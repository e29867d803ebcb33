// A loop local assigned a new record in every iteration that already held
// a value when the loop started: the caller's record (a parameter of
// run()), or, in OSR code, whatever the interpreter's frame held when the
// loop was entered. Escape analysis keeps the previous iteration's record
// virtual at the loop header, standing for the entry value until the loop
// assigns the local: the loops allocate nothing. Reading p where `i == k`
// (never true while compiling) deoptimizes and must find the previous
// record with its fields, or, in the first iteration, the entry value
// itself (the same object: `p == first`). After the loop p is stored
// (OSR code stores every local back), the entry value again if the loop
// ran no iteration.
function run(n, k, first) {
  p = first;
  i = 0;
  s = 0;
  while (i < n) {
    if (i == k) {
      s = s + p.x * 1000;
      if (p == first) { s = s + 7; }
    }
    p = new();
    p.x = i;
    s = s + p.x;
    i = i + 1;
  }
  holder = new();
  holder.p = p;
  holder.s = s;
  return holder;
}

function main() {
  first = new();
  first.x = 5;
  j = 0;
  t = 0;
  while (j < 3000) {
    t = t + run(20, 1000, first).s;
    j = j + 1;
  }
  println(t);
  println(run(10, 5, first).s);
  println(run(10, 0, first).s);
  h = run(0, 1000, first);
  println(h.p == first);
  println(run(3, 1000, first).p.x);
  // One long loop in main, entered once: OSR code, with q the record of the
  // iteration before the OSR entry.
  q = first;
  i = 0;
  s = 0;
  while (i < 300000) {
    if (i == 250000) {
      s = s + q.x;
    }
    q = new();
    q.x = i;
    s = s + q.x;
    i = i + 1;
  }
  println(s);
  println(q.x);
}
