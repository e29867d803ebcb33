function greet() {
  return "first greet";
}

function main() {
  return "first main";
}

function greet() {
  return "second greet";
}

function main() {
  println(greet());
  return "second main";
}
