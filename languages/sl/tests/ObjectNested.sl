function main() {
  o = new();
  inner = new();
  o.inner = inner;
  o.inner.value = 7;
  println(inner.value);
  println(o.inner == inner);
  println(o["in" + "ner"].value);
  o.inner.deeper = new();
  o.inner.deeper.leaf = "leaf";
  println(inner.deeper.leaf);
  println(o.inner["deeper"]["leaf"]);
}
