function main() {
  line = readln();
  println(line == "");
  println(isNull(line));
  println("[" + readln() + "]");
}
