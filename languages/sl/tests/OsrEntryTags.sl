// On-stack replacement compiles a loop for the value tags its locals had
// when the compilation was requested, and speculates on them at the entry.
// `keep`'s loop never touches x, so only that entry check tells its code
// that x is a long in the first call but a string, a boolean, an object and
// a function in the later ones: each such entry must deoptimize (and the
// loop be compiled again for the new tags), never read x with the old tag.
function keep(x, n) {
  i = 0;
  while (i < n) {
    i = i + 1;
  }
  return x;
}
function main() {
  println(keep(1, 200000));
  println(keep("s", 200000));
  println(keep(true, 200000));
  o = new();
  o.v = 5;
  println(keep(o, 200000).v);
  println(keep(keep, 200000));
  println(keep(2, 200000) + 1);
}
