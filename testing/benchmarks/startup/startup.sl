// startup: the smallest program that proves it ran (tools/bench/run.py
// --startup): one line of output, nothing else, so that the process's time
// and peak memory are the runtime's start-up and shut-down.
function main() {
  println("checksum 0");
}
