function hook1() {
  println("hook 1");
}

function hook2() {
  println("hook 2");
}

function main() {
  registerShutdownHook(hook1);
  registerShutdownHook(hook2);
  println("before exit");
  exit(7);
  println("not printed");
}
