// A record carried around a loop (its fields live in registers while the
// loop runs) and a record made and dropped in every iteration, in a loop
// hot enough to be compiled on stack; then the same with a field that
// turns into a string half way, which deoptimizes inside the loop with
// the carried record virtual.
function run(n, bump) {
  acc = new();
  acc.sum = 0;
  acc.count = 0;
  i = 0;
  while (i < n) {
    t = new();
    t.v = i * 2;
    t.w = t.v + bump;
    acc.sum = acc.sum + t.w;
    acc.count = acc.count + 1;
    if (i == n - 3) {
      bump = "x";
    }
    i = i + 1;
  }
  return acc.sum + " " + acc.count;
}
function main() {
  println(run(50000, 1));
  println(run(10, 2));
}
