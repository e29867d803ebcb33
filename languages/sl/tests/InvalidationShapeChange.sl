// Objects change shape while compiled code that reads them runs: the
// compiled reader (getX, and sumX's own o.x) cached the shape {x}; during
// a call from the compiled loop the object gains a property and the next
// object has x at another storage index ({z, x}) or is in dictionary mode.
// A stale shape check would read the wrong slot.

function getX(o) { return o.x; }

function make(n) {
  o = new();
  o.x = n;
  return o;
}

function makeOther(n) {
  o = new();
  o.z = 5;
  o.x = n;
  return o;
}

function makeDictionary(n) {
  o = new();
  i = 0;
  while (i < 40) {
    o["p" + i] = i;
    i = i + 1;
  }
  o.x = n;
  return o;
}

function reshape(objects, i) {
  objects[i].y = 1;
  objects[i + 1] = makeOther(1000);
  objects[i + 2] = makeDictionary(20000);
  return 0;
}

function sumX(objects, n, at) {
  i = 0;
  sum = 0;
  while (i < n) {
    o = objects[i];
    sum = sum + getX(o) + o.x;
    if (i == at) {
      reshape(objects, i);
    }
    sum = sum + o.x;
    i = i + 1;
  }
  return sum;
}

function fill(objects, n) {
  i = 0;
  while (i < n) {
    objects[i] = make(i);
    i = i + 1;
  }
}

function main() {
  objects = new();
  k = 0;
  r = 0;
  while (k < 30) {
    fill(objects, 8);
    r = sumX(objects, 8, 0 - 1);
    k = k + 1;
  }
  println(r);
  fill(objects, 8);
  println(sumX(objects, 8, 3));
  println(getX(objects[3]) + objects[3].y);
  // Different shapes reaching the compiled reader directly.
  b = new();
  b.z = 7;
  b.x = 9;
  println(getX(b));
  c = new();
  c.x = "str";
  println(getX(c));
  println(getX(makeDictionary(77)));
}
