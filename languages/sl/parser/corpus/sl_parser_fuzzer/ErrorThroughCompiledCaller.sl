// A guest error raised in a callee travels through (compiled) callers
// unchanged: the compiled-code tests run this with every function compiled.
function bad(x) { if (x > 1) { return x + new(); } return x; }
function call(x) { return bad(x) + 1; }
function main() { i = 0; while (i < 4) { println(call(i)); i = i + 1; } }
