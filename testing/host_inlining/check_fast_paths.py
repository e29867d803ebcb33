#!/usr/bin/env python3
"""Checks that the interpreter's fast paths are straight-line code in the
optimized build (issue #16; Truffle's HostInliningTest).

Reads fast_paths.txt and the optimized object code of //testing/host_inlining:
roots (an archive), disassembles it with objdump, and for each root lists the
calls its code keeps. A call through a register or memory operand is a call to
a child (a node's children and a bytecode's operations are called through
their vtables); a direct call or tail call must match one of the root's
`allow` lines, each of which names a boundary or slow path and says why it is
one. Anything else is a fast path that stopped being inlined: the test fails
and names the call. A root marked `frameless` must also push no register and
make no call (a tail jump is allowed): a path the host compiler leaves without
a prologue.

Code that the compiler moved out of line as unlikely (a function's
"[clone .cold]" part: what follows a throw, an abort or a cold call such as
TransferToInterpreter) is not part of the fast path and is not checked.

Usage: check_fast_paths.py SPEC ARCHIVE [--report]
  --report  print every root's calls, allowed or not, and exit 0 unless a root
            is missing.
"""

import re
import subprocess
import sys

# Calls any root may keep: failure paths the toolchain adds.
ALWAYS_ALLOWED = {
    "__stack_chk_fail": "the stack protector's failure path (-fstack-protector; aborts)",
    "_Unwind_Resume": "a landing pad's end: an exception goes on unwinding after a destructor ran",
}
SANITIZER_CALL = re.compile(r"^(__asan_|__ubsan_|__sanitizer_|__tsan_|__msan_)")
CLONE_SUFFIX = re.compile(r" \[clone [^\]]*\]")
# ".text.unlikely._ZN...E+0x1a": a section named after a function
# (-ffunction-sections), with an offset into it; the function's name is
# mangled, or plain for an extern "C" function (roots.cc's roots).
SECTION_SYMBOL = re.compile(r"^\.text(?:\.unlikely|\.hot|\.startup)?\.(_Z[^+]*?|[A-Za-z_]\w*?)(?:\.(?:isra|part|constprop|cold)\.\d+)*(?:\+0x[0-9a-f]+)?$")


class Root:
    def __init__(self, name, target, line):
        self.name = name
        self.target = re.compile(target)
        self.target_text = target
        self.line = line
        self.allow = []  # (regex, why, line)
        self.frameless = None  # why, when the root must save nothing and call nothing


def read_spec(path):
    roots = []
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split(None, 2)
            if fields[0] == "root" and len(fields) == 3:
                roots.append(Root(fields[1], fields[2].strip(), number))
            elif fields[0] == "frameless" and roots:
                _, _, why = line.partition("  # ")
                if not why.strip():
                    sys.exit(f"{path}:{number}: a frameless line says why after '  # '")
                roots[-1].frameless = why.strip()
            elif fields[0] == "allow" and len(fields) >= 2 and roots:
                rest = line.split(None, 1)[1]
                pattern, _, why = rest.partition("  # ")
                if not why.strip():
                    sys.exit(f"{path}:{number}: an allow line says why after '  # '")
                roots[-1].allow.append((re.compile(pattern.strip()), why.strip(), number))
            else:
                sys.exit(f"{path}:{number}: expected 'root NAME REGEX', or "
                         f"'allow REGEX  # why' or 'frameless  # why' after a root")
    return roots


def disassemble(archive, frames):
    """{function name: [call]} where a call is ("indirect", text) or
    ("direct", callee name), for every function of every member; fills
    `frames` with {function name: [register pushes and call instructions]}."""
    result = subprocess.run(["objdump", "-dr", "-C", "-w", "--no-show-raw-insn", archive],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"objdump failed on {archive}: {result.stderr.strip()}")
    functions = {}
    current = None
    current_name = None
    for line in result.stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            current_name = m.group(1)
            current = functions.setdefault(current_name, [])
            frame = frames.setdefault(current_name, [])
            continue
        if current is None or "\t" not in line:
            continue
        # "  off:\tmnemonic operands[\treloc-offset: TYPE\tsymbol-addend]" (-w)
        parts = line.split("\t")
        if len(parts) < 2:
            continue
        instruction = parts[1].strip()
        if re.match(r"^(?:push\s|(?:bnd |notrack )?call\s)", instruction):
            frame.append(instruction.split("<")[0].strip())  # a frame (tail calls jump)
        m = re.match(r"^(?:bnd |notrack )?(call|jmp)\s+(.*)$", instruction)
        if not m:
            continue
        operand = m.group(2)
        if "*" in operand:
            current.append(("indirect", operand))
            continue
        reloc = re.search(r"R_X86_64_(?:PLT32|PC32)\t(.*?)(?:-0x4)?$", line)
        if reloc:
            target = reloc.group(1)
            section = SECTION_SYMBOL.match(target)
            if section:
                # A relocation against a section symbol (a local function, or
                # this function's own cold part): named by its section.
                target = ("section", section.group(1))
            current.append(("direct", target))
            continue
        # Resolved in place: a branch within this function, or a call to
        # another function of the same section.
        target = re.search(r"<(.*?)(?:\+0x[0-9a-f]+)?>$", operand)
        if target and target.group(1) != current_name:
            current.append(("direct", target.group(1)))
    # Name the section-symbol targets: demangle the section's function name.
    mangled = sorted({t[1] for calls in functions.values() for kind, t in calls
                      if kind == "direct" and isinstance(t, tuple)})
    names = {}
    if mangled:
        demangled = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n",
                                   stdout=subprocess.PIPE, text=True).stdout.splitlines()
        names = dict(zip(mangled, demangled))
    for function, calls in functions.items():
        resolved = []
        for kind, target in calls:
            if kind == "direct" and isinstance(target, tuple):
                name = names.get(target[1], target[1])
                if CLONE_SUFFIX.sub("", name) == CLONE_SUFFIX.sub("", function):
                    continue  # a branch to this function's own cold part
                target = name
            resolved.append((kind, target))
        calls[:] = resolved
    return functions


def find(functions, regex):
    return [name for name in functions if regex.search(name) and "[clone .cold]" not in name]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    spec, archive = sys.argv[1], sys.argv[2]
    report = "--report" in sys.argv[3:]
    roots = read_spec(spec)
    frames = {}
    functions = disassemble(archive, frames)
    instrumented = sorted({callee for calls in functions.values()
                           for kind, callee in calls
                           if kind == "direct" and SANITIZER_CALL.match(callee)})
    if instrumented:
        print(f"the archive is instrumented ({instrumented[0]}, ...): the fast paths are "
              f"checked in the uninstrumented build only; nothing checked")
        return 0
    failures = 0
    for root in roots:
        wrapper = f"morel_host_root_{root.name}"
        if wrapper in functions:
            code = functions[wrapper]
            reached = wrapper
            # The wrapper's call to the method's out-of-line copy: check the method.
            for kind, callee in code:
                if kind == "direct" and root.target.search(CLONE_SUFFIX.sub("", callee)):
                    matches = [n for n in find(functions, root.target)
                               if CLONE_SUFFIX.sub("", n) == CLONE_SUFFIX.sub("", callee)]
                    if not matches:
                        print(f"FAIL {root.name}: calls {callee}, whose code is not in "
                              f"the archive")
                        failures += 1
                        code = None
                        break
                    reached = matches[0]
                    code = [c for c in code if c != (kind, callee)] + functions[reached]
                    break
        else:
            matches = find(functions, root.target)
            if len(matches) != 1:
                print(f"FAIL {root.name}: {len(matches)} functions match "
                      f"/{root.target_text}/ (fast_paths.txt:{root.line})"
                      + "".join(f"\n    {m}" for m in matches[:5]))
                failures += 1
                continue
            reached = matches[0]
            code = functions[reached]
        if code is None:
            continue
        children = sum(1 for kind, _ in code if kind == "indirect")
        bad, allowed = [], {}
        for kind, callee in code:
            if kind != "direct":
                continue
            name = CLONE_SUFFIX.sub("", callee)
            if name in ALWAYS_ALLOWED:
                allowed.setdefault(name, ALWAYS_ALLOWED[name])
                continue
            for regex, why, _ in root.allow:
                if regex.search(name):
                    allowed.setdefault(name, why)
                    break
            else:
                bad.append(name)
        # A frameless root: its code (the wrapper's, when it inlined the
        # method) pushes no register and calls nothing; it may tail-jump.
        framed = frames.get(reached, []) if root.frameless else []
        verdict = "ok  " if not bad and not framed else "FAIL"
        if bad or framed:
            failures += 1
        if bad or framed or report:
            print(f"{verdict} {root.name}: {reached}")
            if framed:
                print(f"       NOT FRAMELESS: {'; '.join(framed[:4])}\n"
                      f"           (frameless: {root.frameless})")
            print(f"       {children} call(s) through a vtable or table (children, operations)")
            for name, why in sorted(allowed.items()):
                print(f"       boundary {name}\n           ({why})")
            for name in sorted(set(bad)):
                print(f"       NOT INLINED {name}")
        else:
            print(f"ok   {root.name}: {children} child call(s), "
                  f"{len(allowed)} boundary(ies)")
    print(f"{len(roots) - failures} of {len(roots)} fast paths are straight-line code")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
