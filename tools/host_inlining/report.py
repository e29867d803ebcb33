#!/usr/bin/env python3
"""The host-inlining report (issue #16): what GCC inlined into each of the
interpreter's fast paths, and what it left a call, with its reasons and its
own size and time estimates.

Compiles the sources of //testing/host_inlining:roots with the flags of
`-c opt` plus -fopt-info-inline-all, and prints for every root of
testing/host_inlining/fast_paths.txt the function it reaches and one line per
call site of that function's optimized body, in source order:

  INLINE callee [size N, time T, net change +N, reason null]   file:line
  CUTOFF callee [reason boundary | dominated by a cold path | out of budget
                 | recursive | not direct call, growth N]       file:line

GCC names the function each call was finally inlined into (the root), not
the intermediate callers, so the tree is one level deep: every call site of
the root's body, wherever the inlined code came from. Sizes and times are
GCC's inline estimates after the step (its "which now has time T and size
S, net change of N"). Calls through a vtable are not call-graph edges and
are not listed (the checker, check_fast_paths.py, counts them).

Usage: bazel run //tools/host_inlining -- [--root NAME] [--all]
  --root NAME  only this root
  --all        also list the always_inline and trivial accessors (INLINE
               lines whose net change is 0 or that GCC inlined early)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

SOURCES = [
    "testing/host_inlining/roots.cc",
    "languages/sl/nodes/invoke_node.cc",
    "nodes/bytecode/bytecode_root_node.cc",
]
# -c opt's flags (Bazel's unix toolchain) and the repository's copts
# (.bazelrc), as //testing/host_inlining:roots compiles these files.
FLAGS = ["-std=c++20", "-O2", "-DNDEBUG", "-ffunction-sections", "-fdata-sections",
         "-fno-tree-slp-vectorize", "-fstack-protector", "-U_FORTIFY_SOURCE",
         "-D_FORTIFY_SOURCE=1"]

# "file:line:col: optimized:  Inlining CALLEE/N into CALLER/M." (early) or
# "... Inlined CALLEE/N into CALLER/M which now has time T and size S, net
# change of C." (IPA); "file:line:col: missed:   not inlinable: CALLER/M ->
# CALLEE/N, REASON" and "will not early inline: CALLER/M->CALLEE/N, REASON".
LOCATION = r"^(?P<loc>[^:\s]+:\d+:\d+): "
INLINED = re.compile(LOCATION + r"optimized:\s+Inlin(?:ing|ed) (?P<callee>.+?)/(?P<cid>\d+) "
                     r"into (?P<caller>.+?)/(?P<rid>\d+)(?P<rest>.*)$")
MISSED = re.compile(LOCATION + r"missed:\s+(?P<kind>not inlinable|will not early inline): "
                    r"(?P<caller>.+?)/(?P<rid>\d+) ?-> ?(?P<callee>.+?)/(?P<cid>\d+), "
                    r"(?P<reason>.*)$")
COSTS = re.compile(r"which now has time (?P<time>[\d.]+) and size (?P<size>\d+), "
                   r"net change of (?P<change>[+-]?\d+)")
WITH = re.compile(r" \[with [^\]]*\]")


def classify(reason):
    """GCC's reason -> the guide's category and the figure GCC gives."""
    growth = re.search(r"(?:grow at least by|growth) (\d+)", reason)
    figure = f", growth {growth.group(1)}" if growth else ""
    if "function not inlinable" in reason:
        return "boundary or cutoff (noinline)" + figure
    if "body not available" in reason:
        return "boundary (defined in another unit)" + figure
    if "unlikely" in reason or "is cold" in reason:
        return "dominated by a cold path" + figure
    if "recursive" in reason:
        return "recursive" + figure
    if "--param" in reason or "limit" in reason:
        return f"out of budget ({reason.strip()})"
    return reason.strip()


def normal(name):
    """GCC prints a virtual function's name with "virtual " in some records."""
    return re.sub(r"^virtual ", "", name)


def short(name):
    name = WITH.sub("", name)
    suffix = ""
    if name.endswith(" const"):
        name, suffix = name[:-len(" const")], " const"
    name = re.sub(r"^(?:virtual |static |constexpr |inline )+", "", name)
    # Drop the return type: what precedes the qualified name's last space
    # outside templates and parentheses.
    depth, cut = 0, 0
    for i, ch in enumerate(name):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == " " and depth == 0:
            cut = i + 1
    return name[cut:] + suffix


def read_roots(spec):
    roots = []
    with open(spec) as f:
        for line in f:
            fields = line.split(None, 2)
            if len(fields) == 3 and fields[0] == "root":
                roots.append((fields[1], re.compile(fields[2].strip())))
    return roots


def compile_with_records(workspace, bin_dir, source, out_dir):
    records = os.path.join(out_dir, os.path.basename(source) + ".inline.txt")
    command = (["g++"] + FLAGS + ["-I", workspace, "-I", bin_dir, "-c",
                                  os.path.join(workspace, source), "-o", os.devnull,
                                  f"-fopt-info-inline-all={records}"])
    result = subprocess.run(command, cwd=workspace, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit(f"host_inlining: compiling {source} failed:\n{result.stdout[-3000:]}")
    with open(records) as f:
        return f.read().splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--workspace", default=os.environ.get("BUILD_WORKSPACE_DIRECTORY"))
    parser.add_argument("--spec", help="the roots (default: the workspace's "
                                       "testing/host_inlining/fast_paths.txt)")
    parser.add_argument("--sources", help="comma-separated sources, with --records (default: "
                                          + ",".join(SOURCES) + ")")
    parser.add_argument("--records", metavar="DIR",
                        help="read <source basename>.inline.txt from DIR (records GCC wrote "
                             "with -fopt-info-inline-all) instead of building and compiling")
    args = parser.parse_args()
    workspace = args.workspace or os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    lines = []
    sources = args.sources.split(",") if args.sources else SOURCES
    if args.records:
        for source in sources:
            with open(os.path.join(args.records, os.path.basename(source) + ".inline.txt")) as f:
                lines += [(source, line) for line in f.read().splitlines()]
    else:
        # The generated headers (engine_config.pb.h, ...) the sources include.
        build = subprocess.run(["bazel", "build", "//testing/host_inlining:roots"],
                               cwd=workspace, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
        if build.returncode != 0:
            sys.exit(f"host_inlining: bazel build failed:\n{build.stdout[-3000:]}")
        bin_dir = subprocess.run(["bazel", "info", "bazel-bin"], cwd=workspace,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True).stdout.strip()
        with tempfile.TemporaryDirectory() as out_dir:
            for source in SOURCES:
                lines += [(source, line) for line in
                          compile_with_records(workspace, bin_dir, source, out_dir)]

    # {function id: name}, {(source, function id): {location: site}}
    names, sites = {}, {}
    for source, line in lines:
        m = INLINED.match(line)
        if m:
            names[(source, m.group("rid"))] = normal(m.group("caller"))
            names[(source, m.group("cid"))] = normal(m.group("callee"))
            costs = COSTS.search(m.group("rest"))
            early = costs is None
            detail = (f"size {costs.group('size')}, time {float(costs.group('time')):.0f}, "
                      f"net change {int(costs.group('change')):+d}, reason null"
                      if costs else
                      "early inliner" + (", always_inline" if "always_inline" in line else ""))
            sites.setdefault((source, m.group("rid")), {})[m.group("loc")] = (
                "INLINE", m.group("callee"), detail, early, m.group("cid"))
            continue
        m = MISSED.match(line)
        if m:
            names[(source, m.group("rid"))] = normal(m.group("caller"))
            names[(source, m.group("cid"))] = normal(m.group("callee"))
            callee = m.group("callee")
            if re.search(r"\b__(atomic|builtin|sync)_", callee):
                continue  # expanded in place, not calls
            per_site = sites.setdefault((source, m.group("rid")), {})
            if m.group("loc") in per_site and per_site[m.group("loc")][0] == "INLINE":
                continue  # inlined later: the later decision stands
            per_site[m.group("loc")] = ("CUTOFF", callee,
                                        "reason " + classify(m.group("reason")),
                                        m.group("kind") == "will not early inline",
                                        m.group("cid"))

    def function_ids(predicate):
        return [key for key in sites if predicate(names.get(key, ""))]

    def records_of(key, seen):
        """The records of a function: an IPA clone has none of its own, so
        those of the functions of the same full name (not GCC's bare clone
        names, "Guard.isra", which are ambiguous)."""
        if key in sites or "(" not in names.get(key, ""):
            return sites.get(key, {})
        merged = {}
        for other in sites:
            if other[0] == key[0] and other not in seen and names.get(other) == names[key]:
                merged.update(sites[other])
        return merged

    def tree(key, seen, entries=None):
        """[(kind, callee, detail, location, early, children)] of the
        function's call sites, in source order."""
        entries = records_of(key, seen) if entries is None else entries
        out = []
        for loc in sorted(entries, key=lambda l: (l.rsplit(":", 2)[0],
                                                  int(l.rsplit(":", 2)[1]),
                                                  int(l.rsplit(":", 2)[2]))):
            kind, callee, detail, early, cid = entries[loc]
            child_key = (key[0], cid)
            children = (tree(child_key, seen | {child_key})
                        if kind == "INLINE" and child_key not in seen else [])
            location = loc.replace(workspace.rstrip("/") + "/", "").replace("./", "")
            out.append((kind, callee, detail, location, early, children))
        return out

    def inlined_locations(nodes):
        found = set()
        for kind, _, _, loc, _, children in nodes:
            if kind == "INLINE":
                found.add(loc)
            found |= inlined_locations(children)
        return found

    def render(nodes, depth, inlined):
        """The lines of `nodes` and their children, indented by `depth`."""
        lines = []
        for kind, callee, detail, loc, early, children in nodes:
            # An early inliner's refusal of a call the IPA inliner took
            # later (the same call site inlined elsewhere in this tree).
            if kind == "CUTOFF" and early and loc in inlined:
                continue
            below = render(children, depth + 1, inlined)
            if kind == "INLINE" and early and not below and not args.all:
                continue  # a trivial accessor the early inliner took
            lines.append(f"{'  ' * depth}{kind} {short(callee)} [{detail}]  {loc}")
            lines += below
        return lines

    spec = args.spec or os.path.join(workspace, "testing", "host_inlining", "fast_paths.txt")
    printed = 0
    for name, target in read_roots(spec):
        if args.root and name != args.root:
            continue
        wrapper = f"morel_host_root_{name}("
        targets = function_ids(lambda n: target.search(short(n)) is not None)
        # The wrapper, or without one (the dispatch loop) the function by name.
        keys = function_ids(lambda n: wrapper in n) or targets
        if not keys:
            print(f"{name}: GCC printed no records for it\n")
            continue
        key = keys[0]
        # A wrapper that calls the method's out-of-line copy: the method.
        if key not in targets:
            for kind, callee, _, _, _ in sites[key].values():
                copies = function_ids(lambda n, m=normal(callee): n == m)
                if kind == "CUTOFF" and copies and target.search(short(normal(callee))):
                    key = copies[0]
                    break
        nodes = tree(key, {key})
        print(f"{name}  {short(names[key])}")
        for line in render(nodes, 1, inlined_locations(nodes)):
            print(line)
        print()
        printed += 1
    if printed == 0:
        sys.exit("host_inlining: no root printed" + (f" (--root {args.root})" if args.root else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
