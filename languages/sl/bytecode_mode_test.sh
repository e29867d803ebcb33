#!/usr/bin/env bash
# bytecode_mode_test.sh <sl launcher> <program.sl> <function>
# --sl.UseBytecode=true reaches the functions: the same program, compiled
# at once in both modes, prints the same, but <function>'s call target has
# a different node tree -- a bytecode root and its operations instead of
# the AST -- which the compilation trace's "AST" column counts. A launcher
# that ignored the option would print equal counts and fail here (the
# bytecode conformance tests cannot tell, their outputs being the AST's).
set -u
sl=$1 program=$2 function=$3
flags=(--engine.Backend=ir_interpreter --engine.CompileImmediately
       --engine.BackgroundCompilation=false --engine.TraceCompilation)

node_count() {  # mode -> the AST column of <function>'s first "opt done" line
  "$sl" "--sl.UseBytecode=$1" "${flags[@]}" "$program" > "$TEST_TMPDIR/out.$1" 2>&1 ||
    { echo "FAIL: UseBytecode=$1 exited with $?"; cat "$TEST_TMPDIR/out.$1"; exit 1; }
  grep -E "opt done +engine=[0-9]+ +id=[0-9]+ +$function " "$TEST_TMPDIR/out.$1" | head -n 1 |
    sed -n 's/.*|AST *\([0-9]*\)|.*/\1/p'
}

ast=$(node_count false)
bytecode=$(node_count true)
echo "$function: $ast nodes in AST mode, $bytecode in bytecode mode"
if [[ -z "$ast" || -z "$bytecode" ]]; then
  echo "FAIL: no 'opt done' line for $function"; exit 1
fi
if [[ "$ast" == "$bytecode" ]]; then
  echo "FAIL: the same node count in both modes: --sl.UseBytecode had no effect"; exit 1
fi
if ! diff <(grep -v '^\[engine\]' "$TEST_TMPDIR/out.false") \
          <(grep -v '^\[engine\]' "$TEST_TMPDIR/out.true"); then
  echo "FAIL: the program's output differs between the modes"; exit 1
fi
echo PASS
