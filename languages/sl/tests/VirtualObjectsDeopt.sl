// Objects that escape analysis keeps virtual, then a deoptimization with
// them live: point() and add() are inlined into work(), so p (also named q)
// and r are never allocated in compiled code -- until `r.x + k` meets a
// string, after every object is built. The interpreter then needs the
// objects with their fields at that point, p and q must be one object (a
// property added through q is seen through p), and their shapes must let
// new properties be added and old ones read.
function point(x, y) {
  p = new();
  p.x = x;
  p.y = y;
  return p;
}
function add(a, b) {
  return point(a.x + b.x, a.y + b.y);
}
function work(i, k) {
  p = point(i, 1);
  q = p;
  r = add(p, point(i * 2, 2));
  s = r.x + k;
  q.z = s;
  r.w = p;
  return p.z + "/" + r.y + "/" + (p == q) + "/" + (r.w == q) + "/" + r.w.x + "/" + (r == p);
}
function main() {
  i = 0;
  last = "";
  while (i < 20000) {
    last = work(i, 3);
    i = i + 1;
  }
  println(last);
  println(work(5, "k"));
  println(work(7, 1));
  println(work(9, "again"));
}
