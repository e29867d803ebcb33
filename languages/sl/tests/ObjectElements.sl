// Objects used as arrays: Number keys that are array indices live in the
// object's elements (runtime/sl_object.h), which must not be observable.
// o[3] and o["3"] are one property, o["03"], o[-1] and o[2147483647] are
// named properties, holes read as undefined, sparse writes and growth after
// a sparse write, elements beside a dictionary-mode object, and the same
// accesses from hot (compiled) functions.
function get(o, k) { return o[k]; }
function put(o, k, v) { o[k] = v; return v; }

function fill(o, from, to, step) {
  i = from;
  while (i < to) {
    put(o, i, i * 10);
    i = i + step;
  }
}

function sum(o, from, to, step) {
  s = 0;
  i = from;
  while (i < to) {
    s = s + get(o, i);
    i = i + step;
  }
  return s;
}

function main() {
  a = new();
  a[0] = "zero";
  a["1"] = "one";
  println(a["0"] + " " + a[1]);
  a[1] = "uno";
  println(a["1"]);
  a["03"] = "leading zero";
  a[3] = "three";
  println(a["03"] + " / " + a[3] + " / " + a["3"]);
  a[0 - 1] = "minus one";
  println(a["-1"]);
  a[2147483646] = "largest index";
  a[2147483647] = "not an index";
  println(a["2147483646"] + " / " + a["2147483647"]);
  a[100000000000000000000] = "big";
  println(a["100000000000000000000"]);

  // Dense, then read back from a compiled loop.
  b = new();
  fill(b, 0, 2000, 1);
  println(sum(b, 0, 2000, 1));
  // Every third overwritten, by string keys.
  i = 0;
  while (i < 2000) { b["" + i] = 1; i = i + 3; }
  println(sum(b, 0, 2000, 1));

  // Sparse first: index keys then stay named properties.
  c = new();
  c[5000] = 1;
  fill(c, 0, 100, 1);
  println(sum(c, 0, 100, 1) + c[5000]);
  println(c["5000"] + c["99"]);

  // Many named properties (dictionary mode) and elements together.
  d = new();
  i = 0;
  while (i < 100) { d["k" + i] = i; d[i] = i + 1; i = i + 1; }
  println(d.k99 + d[99] + d["k0"] + d["0"]);

  // Elements beside the function's own properties, written backwards.
  e = new();
  i = 20;
  while (i > 0) { i = i - 1; put(e, i, i); }
  e.length = 20;
  println(sum(e, 0, e.length, 1));

  // A hole, read from a compiled function: the interpreter's error.
  h = new();
  fill(h, 0, 100, 2);
  println(sum(h, 0, 100, 2));
  println(get(h, 51));
}
