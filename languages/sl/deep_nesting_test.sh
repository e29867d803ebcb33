#!/usr/bin/env bash
# Programs nested exactly as deep as the parser allows (kMaxNestingDepth,
# languages/sl/parser/syntax_parser.h) run to the right result in the
# interpreter and when compiled before their first call, on a background
# compiler thread or the guest thread; one level deeper is a syntax error
# with its location, and 300,000 nested parentheses end with that error
# instead of a native stack overflow. Usage: deep_nesting_test.sh <sl>
set -u
sl=$1
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
limit=1000  # kMaxNestingDepth

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/deep_nesting.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

repeat() {  # repeat TEXT N
  local out=""
  local i
  for ((i = 0; i < $2; ++i)); do out+="$1"; done
  printf '%s' "$out"
}

# program KIND N: the levels of each construct are counted in syntax_parser.h;
# with N as below the deepest node sits at exactly $limit.
program() {
  case $1 in
    sum) printf 'function main() { x = 1%s; println(x); }\n' "$(repeat ' + 1' $(($2 - 1)))" ;;
    parens) printf 'function main() { x = %s1%s; println(x); }\n' "$(repeat '(' $2)" "$(repeat ')' $2)" ;;
    ifs) printf 'function main() { x = 0; %sx = x + 1; %sprintln(x); }\n' "$(repeat 'if (1 < 2) { ' $2)" "$(repeat '} ' $2)" ;;
    whiles) printf 'function main() { x = 0; %sx = x + 1; %sprintln(x); }\n' "$(repeat 'while (x < 1) { ' $2)" "$(repeat '} ' $2)" ;;
    props) printf 'function main() { a = new(); a.b = a; println(a%s == a); }\n' "$(repeat '.b' $2)" ;;
    calls) printf 'function f() { return f; } function main() { println(f%s == f); }\n' "$(repeat '()' $2)" ;;
    assigns) printf 'function main() { %s1; println(x); }\n' "$(repeat 'x = ' $2)" ;;
  esac
}

# kind, n at the limit, expected output
cases=(
  "sum $((limit - 3)) $((limit - 3))"
  "parens $((limit - 4)) 1"
  "ifs $(((limit - 5) / 2)) 1"
  "whiles $(((limit - 5) / 2)) 1"
  "props $((limit - 4)) true"
  "calls $((limit - 4)) true"
  "assigns $((limit - 3)) 1"
)
modes=(
  "--engine.Compilation=false"
  "--engine.CompileImmediately=true"
  "--engine.CompileImmediately=true --engine.BackgroundCompilation=false"
)

failures=0
for c in "${cases[@]}"; do
  read -r kind n expected <<<"$c"
  program "$kind" "$n" >"$tmp/$kind.sl"
  for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086
    out=$("${sl[@]}" "$tmp/$kind.sl" $mode 2>&1)
    status=$?
    if [[ $status -ne 0 || "$out" != "$expected" ]]; then
      echo "FAIL: $kind $n [$mode]: status $status, output '${out:0:200}', expected '$expected'"
      failures=$((failures + 1))
    fi
  done
  # One level deeper.
  program "$kind" "$((n + 1))" >"$tmp/$kind-deeper.sl"
  out=$("${sl[@]}" "$tmp/$kind-deeper.sl" 2>&1)
  status=$?
  if [[ $status -ne 1 || "$out" != *"nesting too deep (more than $limit levels)"* ||
        "$out" != *"-- line 1 col "* ]]; then
    echo "FAIL: $kind $((n + 1)): status $status, output '${out:0:200}'"
    failures=$((failures + 1))
  fi
done

# Issue #19's crash: 3,000,000 parentheses (SIGSEGV); 300,000 suffice here.
program parens 300000 >"$tmp/parens-300000.sl"
out=$("${sl[@]}" "$tmp/parens-300000.sl" 2>&1)
status=$?
if [[ $status -ne 1 || "$out" != *"nesting too deep (more than $limit levels)"* ]]; then
  echo "FAIL: 300,000 parentheses: status $status, output '${out:0:200}'"
  failures=$((failures + 1))
fi

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
