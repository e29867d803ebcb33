function functionX(a) {
  return "functionX got " + a;
}

function $dollar() {
  return "$";
}

function _under_score_() {
  return "_";
}

function main() {
  $ = 1;
  _ = 2;
  a$b_c9 = 3;
  whileLoop = 4;
  iffy = 5;
  returned = 6;
  breakfast = 7;
  elsewhere = 8;
  continued = 9;
  debuggers = 10;
  println($ + _ + a$b_c9 + whileLoop + iffy + returned + breakfast + elsewhere + continued + debuggers);
  println(functionX(1));
  println(functionX);
  println($dollar() + _under_score_());
  case = "lower";
  Case = "Upper";
  println(case + Case);
}
