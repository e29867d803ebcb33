function main() {
  x = 1; # not a comment
}
