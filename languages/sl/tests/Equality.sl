function f() {
}

function g() {
}

function null() {
}

function main() {
  println(1 == 1);
  println(1 == 2);
  println(1 != 2);
  println("a" == "a");
  println("a" == "b");
  println("ab" == "a" + "b");
  println(3 == "3");
  println(1 == (1 == 1));
  println((1 == 1) == (2 == 2));
  println((1 == 1) == (1 == 2));
  println(null() == null());
  println(null() == 42);
  println(null() == "NULL");
  println(f == f);
  println(f == g);
  println(f != g);
  println(f == "f");
  o = new();
  p = new();
  println(o == o);
  println(o == p);
  println(o != p);
  q = o;
  println(q == o);
}
