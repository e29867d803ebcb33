function main() {
  break;
}

function other() {
  x = ;
}
