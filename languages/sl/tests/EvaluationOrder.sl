function trace(v) {
  println("eval " + v);
  return v;
}

function add3(a, b, c) {
  return a + b + c;
}

function getF() {
  println("callee");
  return add3;
}

function main() {
  println(trace(1) + trace(2) * trace(3));
  println(trace(10) - trace(4) - trace(3));
  println(getF()(trace("a"), trace("b"), trace("c")));
  println(trace(1) < trace(2));
  o = new();
  trace(o)[trace("k")] = trace("v");
  println(o.k);
}
