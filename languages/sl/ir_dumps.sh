# Reading the compiler's --engine.DumpIR output, for the tests that check
# the IR of SL functions (sourced by inline_objects_test.sh and
# escape_analysis_test.sh). A dump is a line
# ";; IR after <pass>[ (changed|unchanged)]" and the function it shows,
# from "func @<name>(" to its closing "}".

# ir_dumps <file> <function> [<pass>]: the dumps of <function> in <file>
# (after <pass> only, if given), headers included, in the file's order.
ir_dumps() {
  awk -v fn="$2" -v pass="${3:-}" '
    /^;; IR after / { header = $0; wanted = (pass == "" || $4 == pass); next }
    wanted && index($0, "func @" fn "(") == 1 { print header; inside = 1 }
    inside { print; if (/^}/) { inside = 0; wanted = 0 } }
  ' "$1"
}

# ir_dump_counts <ERE>: for the dumps on stdin (ir_dumps' output), one line
# "<pass> <count>" per dump, in order: how many of its lines match <ERE>.
ir_dump_counts() {
  awk -v re="$1" '
    /^;; IR after / { if (seen) print pass, n; seen = 1; pass = $4; n = 0; next }
    $0 ~ re { n++ }
    END { if (seen) print pass, n }
  '
}
