function main() {
  f(1,);
}
