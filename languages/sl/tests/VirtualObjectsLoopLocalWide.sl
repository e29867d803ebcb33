// Records with more properties than an object holds inline (SL keeps the
// rest in a storage block the object points to), assigned to a loop local
// in every iteration: escape analysis carries the previous iteration's
// record and its storage block at the loop header, so the compiled loops
// allocate nothing. Reading p where `i == k` (never true while compiling)
// deoptimizes and must find the previous record with every property,
// those in its storage block included, or the entry value in the first
// iteration (walk's parameter, or in OSR code the interpreter's record).
function make(i) {
  o = new();
  o.a = i;
  o.b = i + 1;
  o.c = i + 2;
  o.d = i + 3;
  o.e = i + 4;
  return o;
}

function walk(n, k, first) {
  p = first;
  i = 0;
  s = 0;
  while (i < n) {
    if (i == k) {
      s = s + p.a * 1000 + p.e * 100 + p.d;
      if (p == first) { s = s + 7; }
    }
    p = make(i);
    s = s + p.a + p.e;
    i = i + 1;
  }
  return s + p.c;
}

function main() {
  first = make(50);
  j = 0;
  t = 0;
  while (j < 3000) {
    t = t + walk(20, 1000, first);
    j = j + 1;
  }
  println(t);
  println(walk(10, 5, first));
  println(walk(10, 0, first));
  println(walk(0, 0, first));
  q = first;
  i = 0;
  s = 0;
  while (i < 300000) {
    if (i == 250000) {
      s = s + q.e;
    }
    q = make(i);
    s = s + q.b;
    i = i + 1;
  }
  println(s);
  println(q.e);
}
