// Truffle's TestOSR.sl: a loop long enough to pass the default
// OSRCompilationThreshold (100352 iterations) in main, which runs once.
// With background compilation the loop continues in the interpreter until
// the OSR code is ready; either way the result is the same.
function main() {
  i = 0;
  sum = 0;
  while (i < 300000) {
    sum = sum + i;
    i = i + 1;
  }
  return sum;
}
