function mkobj() {
  o = new();
  o.z = "zz";
  return o;
}

function add(a, b) {
  return a + b;
}

function main() {
  obj = new();
  obj.fn = mkobj;
  println(obj.fn().z);
  println(obj.fn);
  mkobj().z = 5;
  holder = new();
  holder.inner = new();
  holder.inner.add = add;
  println(holder.inner.add(2, 3));
  println(holder.inner["add"](4, 5));
}
