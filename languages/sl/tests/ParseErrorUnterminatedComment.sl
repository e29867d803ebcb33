function main() {
  /* this comment never ends
}
