function t(name) {
  println(name);
  return 1 == 1;
}

function f(name) {
  println(name);
  return 1 == 2;
}

function main() {
  println(f("a1") && t("a2"));
  println(t("b1") && f("b2"));
  println(t("c1") && t("c2"));
  println(t("d1") || f("d2"));
  println(f("e1") || t("e2"));
  println(f("g1") || f("g2"));
  println(f("h1") && "never evaluated");
  println(t("i1") || 42);
  println(f("j1") || f("j2") || t("j3"));
  println(t("k1") || f("k2") && f("k3"));
  println(f("l1") && f("l2") || t("l3"));
  println(typeOf(t("m1") && t("m2")));
}
