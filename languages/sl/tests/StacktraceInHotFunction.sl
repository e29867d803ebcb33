// stacktrace() called from a function that becomes hot: the frames and
// locals shown must be the same in every compilation mode.
function f(a) { b = a + 1; return stacktrace(); }
function main() { i = 0; s = ""; while (i < 5) { s = f(i); i = i + 1; } return s; }
