// Objects across their in-object slots (the first 3 properties) and their
// out-of-line storage (then 4 values, then 8, ...), built and read in hot,
// compiled functions: adds that fill inline slots, that allocate storage,
// that fit it and that grow it; a shape-polymorphic read of one key at
// different indices; growth into dictionary mode; a deoptimization between
// two adds of an object escape analysis keeps virtual; overwrites after
// the object has escaped.
function make(n) {
  o = new();
  o.a = n;
  o.b = n + 1;
  o.c = n + 2;
  o.d = n + 3;
  o.e = n + 4;
  o.f = n + 5;
  o.g = n + 6;
  o.h = n + 7;
  o.i = n + 8;
  o.j = n + 9;
  return o;
}
function total(o) {
  return o.a + o.b + o.c + o.d + o.e + o.f + o.g + o.h + o.i + o.j;
}
function dropped(n) {
  o = new();
  o.a = n;
  o.b = n * 2;
  o.c = "s";
  o.d = o.a + o.b;
  o.e = o.d + 1;
  return o.e + o.c;
}
function getE(o) {
  return o.e;
}
function late(n, v) {
  o = new();
  o.a = n;
  o.b = v + 1;
  o.c = o.a;
  o.d = o.b;
  o.e = 7;
  return o;
}
function bump(o) {
  o.a = o.a + 100;
  o.e = o.e + 100;
  o.j = o.j + 100;
  return o;
}
function main() {
  i = 0;
  s = 0;
  last = "";
  while (i < 3000) {
    s = s + total(bump(make(i)));
    last = dropped(i);
    i = i + 1;
  }
  println(s + " " + last);

  // One key at index 4 (storage), 0 and 2 (inline).
  p = make(1);
  q = new();
  q.e = 5;
  r = new();
  r.x = 1;
  r.y = 2;
  r.e = 3;
  i = 0;
  s = 0;
  while (i < 3000) {
    s = s + getE(p) + getE(q) + getE(r);
    i = i + 1;
  }
  println(s);

  // Past 32 properties: dictionary mode; every property still there.
  d = make(10);
  i = 0;
  while (i < 30) {
    d["k" + i] = i;
    i = i + 1;
  }
  println(total(d) + " " + d.k0 + " " + d.k29 + " " + getE(d));
  d.e = 1000;
  println(total(bump(d)) + " " + getE(d));

  // Hot with numbers, then a string between two adds.
  i = 0;
  while (i < 3000) {
    o = late(i, i);
    i = i + 1;
  }
  println(o.a + " " + o.b + " " + o.c + " " + o.d + " " + o.e);
  o = late(5, "x");
  println(o.a + " " + o.b + " " + o.c + " " + o.d + " " + o.e);
  o.f = 6;
  println(total(make(0)) + " " + o.f + " " + getE(o));
}
