function hook() {
  println("hook ran");
}

function second() {
  println("second hook ran");
}

function main() {
  println(registerShutdownHook(hook));
  registerShutdownHook(second);
  println("main body");
  return "result";
}
