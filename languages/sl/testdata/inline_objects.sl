// Objects in compiled code (inline_objects_test.sh): new() and cached
// property adds are plain IR -- an `alloc` and stores -- not runtime calls.
// kept() returns its object (it escapes: the allocation stays), dropped()
// only reads its fields back (escape analysis removes the allocation),
// wide() adds eight properties: the first three are in-object slots
// (SLObject::kInlineSlots), the fourth needs out-of-line storage (an
// `alloc` of room for four, then stores), the fifth to seventh fit there
// (stores), the eighth grows it (the one runtime call, which copies it).
// narrow() stops at seven: no call, and escape analysis removes both of
// its allocations.
function kept(n) {
  o = new();
  o.a = n;
  o.c = "c";
  o.d = n + n + 1;
  return o;
}
function dropped(n) {
  o = new();
  o.a = n;
  o.b = n * 2;
  o.c = o.a + o.b;
  return o.c + o.a;
}
function wide(n) {
  o = new();
  o.p0 = n;
  o.p1 = n;
  o.p2 = n;
  o.p3 = n;
  o.p4 = n;
  o.p5 = n;
  o.p6 = n;
  o.p7 = n;
  return o.p0 + o.p3 + o.p4 + o.p6 + o.p7;
}
function narrow(n) {
  o = new();
  o.p0 = n;
  o.p1 = n;
  o.p2 = n;
  o.p3 = n;
  o.p4 = n;
  o.p5 = n;
  o.p6 = n;
  return o.p0 + o.p3 + o.p4 + o.p6;
}
function main() {
  i = 0;
  s = 0;
  last = kept(0);
  while (i < 3000) {
    last = kept(i);
    s = s + dropped(i) + wide(i) + narrow(i) + last.d;
    i = i + 1;
  }
  println(s);
  println(last.a + " " + last.c + " " + last.d);
}
