// Object churn (the programs that chose SLObject::kInlineSlots, at small
// sizes): 6-property particles with 2-property vectors, every 16th kept in
// a list; 3-property points combined in a loop, one carried around it,
// every 64th kept in a ring of 4-property cells. Most objects never escape
// in compiled code; the kept ones must be whole.
function nil() {}
function vec(x, y) {
  v = new();
  v.x = x;
  v.y = y;
  return v;
}
function add(a, b) { return vec(a.x + b.x, a.y + b.y); }
function particle(i) {
  p = new();
  p.pos = vec(i, i + 1);
  p.vel = vec(1, 2);
  p.id = i;
  p.mass = 3;
  p.age = 0;
  p.kind = "p";
  return p;
}
function particles(size) {
  sum = 0;
  i = 0;
  head = nil();
  while (i < size) {
    p = particle(i);
    q = add(p.pos, p.vel);
    p.age = p.age + 1;
    sum = sum + q.x + q.y + p.mass + p.age;
    if (i - (i / 16) * 16 == 0) {
      node = new();
      node.value = p;
      node.next = head;
      head = node;
    }
    i = i + 1;
  }
  n = 0;
  while (isNull(head) == (1 == 2)) {
    n = n + head.value.id + head.value.pos.y;
    head = head.next;
  }
  return sum + n;
}
function point(x, y, z) {
  p = new();
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}
function cross(a, b) {
  return point(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
function cell(p, next) {
  c = new();
  c.point = p;
  c.next = next;
  c.age = 0;
  c.kind = "cell";
  return c;
}
function points(size) {
  acc = point(0, 0, 0);
  ring = cell(acc, 0);
  i = 0;
  while (i < size) {
    a = point(i, i + 1, i + 2);
    b = point(1, 2, 3);
    c = cross(a, b);
    acc = point(acc.x + c.x, acc.y + c.y, acc.z + c.z - 1);
    if (i - (i / 64) * 64 == 0) {
      ring = cell(acc, ring);
    }
    i = i + 1;
  }
  return acc.x + acc.y + acc.z + ring.point.y;
}
function main() {
  a = 0;
  b = 0;
  i = 0;
  while (i < 20) {
    a = particles(2000);
    b = points(3000);
    i = i + 1;
  }
  println(a);
  println(b);
}
