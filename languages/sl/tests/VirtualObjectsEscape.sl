// Objects that escape on some paths only: every tenth record is kept in
// `kept` (an object the loop does not own), the others are dropped after
// their fields are read. Kept records must be whole objects (all fields,
// later writes visible), identical to what the loop held, and the dropped
// ones must compute the same sums as if they had been allocated.
function record(a, b) {
  o = new();
  o.a = a;
  o.b = b;
  o.c = a + b;
  return o;
}
function step(i, kept) {
  o = record(i, i * 3);
  if (i - (i / 10) * 10 == 0) {
    kept.last = o;
    kept.count = kept.count + 1;
  }
  o.c = o.c + 1;
  if (i - (i / 10) * 10 == 0) {
    if (kept.last != o) {
      println("identity lost at " + i);
    }
  }
  return o.a + o.b + o.c;
}
function main() {
  kept = new();
  kept.count = 0;
  i = 0;
  sum = 0;
  while (i < 30000) {
    sum = sum + step(i, kept);
    i = i + 1;
  }
  println(sum);
  println(kept.count);
  println(kept.last.a + " " + kept.last.b + " " + kept.last.c);
}
