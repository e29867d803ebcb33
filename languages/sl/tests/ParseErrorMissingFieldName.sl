function main() {
  x.;
}
