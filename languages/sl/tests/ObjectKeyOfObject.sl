function main() {
  o = new();
  o[new()] = "object key";
  println(o["[foreign object]"]);
  o[typeOf(1)] = "meta-object key";
  println(o["[foreign object]"]);
}
