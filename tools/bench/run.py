#!/usr/bin/env python3
"""Morel benchmark runner: SL on Morel against Lua, LuaJIT, Node.js and C.

Runs every benchmark in testing/benchmarks/ on every runtime that is present,
several times, interleaved round-robin; checks that all runtimes print the same
checksum; prints one table (median wall time per runtime, Morel's time divided
by each peer's); runs the warm-up mode (N iterations in one process, each timed
by the program itself) and writes the results as JSON plus SVG charts.

  python3 tools/bench/run.py                 # table + warm-up + JSON + charts
  python3 tools/bench/run.py --smoke         # CI: tiny sizes, checksums only
  python3 tools/bench/run.py --help

Python 3 standard library only. Installs nothing: a runtime that is missing is
skipped and listed. See tools/bench/README.md.
"""

import argparse
import datetime
import html
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.dirname(os.path.dirname(HERE))

# Runtime name -> (language of the source file, short label).
RUNTIMES = {
    "morel": "sl",
    "morel-interp": "sl",
    "morel-bc": "sl",
    "morel-bc-interp": "sl",
    "lua5.4": "lua",
    "luajit": "lua",
    "node": "js",
    "c": "c",
}
MORELS = ["morel", "morel-interp", "morel-bc", "morel-bc-interp"]
PEERS = ["lua5.4", "luajit", "node", "c"]
INTERP_FLAG = "--engine.Compilation=false"
# SL's bytecode mode (languages/sl/README.md): the morel-bc runtimes.
BYTECODE_FLAG = "--sl.UseBytecode=true"
# Morel's warm-up runs add this: one "[engine] heap ..." line on stderr at exit.
HEAP_FLAG = "--engine.PrintHeapStatistics=true"
# Benchmarks whose size is an exponent (work ~ base^size): --scale adds
# log_base(scale) to the size instead of multiplying it.
EXPONENTIAL = {"fib": 1.618, "binarytrees": 2}

COLORS = {
    "morel": "#c0392b",
    "morel-interp": "#e67e22",
    "morel-bc": "#8e44ad",
    "morel-bc-interp": "#b07cc6",
    "lua5.4": "#2c5fa8",
    "luajit": "#17a2b8",
    "node": "#2e8b3a",
    "c": "#555555",
}
LABELS = {
    "morel": "Morel (SL)",
    "morel-interp": "Morel interpreter only",
    "morel-bc": "Morel (SL bytecode)",
    "morel-bc-interp": "Morel bytecode interpreter only",
    "lua5.4": "Lua 5.4",
    "luajit": "LuaJIT",
    "node": "Node.js",
    "c": "C (gcc -O2)",
}

ITERATION_RE = re.compile(r"^iteration (\d+) (\d+)$")
CHECKSUM_RE = re.compile(r"^checksum (\S+)$")
HEAP_RE = re.compile(r"^\[engine\] heap ((?:\w+=[0-9.]+ ?)+)$")


def log(message):
    print(message, file=sys.stderr, flush=True)


def loud(message):
    bar = "!" * 78
    log(f"{bar}\n!!! {message}\n{bar}")


# --------------------------------------------------------------------------
# The manifest and the programs.


class Benchmark:
    def __init__(self, name, smoke, size, warmup_size, warmup_iterations, smoke_checksum):
        self.name = name
        self.smoke = smoke
        self.size = size
        self.warmup_size = warmup_size
        self.warmup_iterations = warmup_iterations
        self.smoke_checksum = smoke_checksum


def read_manifest(bench_dir):
    path = os.path.join(bench_dir, "benchmarks.txt")
    benchmarks = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != 6:
                sys.exit(f"{path}:{number}: expected 6 columns, got {len(fields)}")
            name = fields[0]
            try:
                numbers = [int(x) for x in fields[1:5]]
            except ValueError:
                sys.exit(f"{path}:{number}: sizes must be integers")
            benchmarks.append(Benchmark(name, *numbers, fields[5]))
    return benchmarks


def rewrite_constants(text, size, iterations, path):
    """Replaces the first integer on the BENCH:SIZE and BENCH:ITERATIONS lines."""
    out = []
    seen = {"BENCH:SIZE": 0, "BENCH:ITERATIONS": 0}
    for line in text.splitlines(keepends=True):
        for marker, value in (("BENCH:SIZE", size), ("BENCH:ITERATIONS", iterations)):
            if marker in line:
                line, n = re.subn(r"\b\d+\b", str(value), line, count=1)
                if n != 1:
                    raise RuntimeError(f"{path}: no number on the {marker} line")
                seen[marker] += 1
        out.append(line)
    for marker, count in seen.items():
        if count != 1:
            raise RuntimeError(f"{path}: expected one {marker} line, found {count}")
    return "".join(out)


class Programs:
    """Rewritten sources (and compiled C binaries) in the work directory."""

    def __init__(self, bench_dir, work_dir, cc):
        self.bench_dir = bench_dir
        self.work_dir = work_dir
        self.cc = cc
        self.cache = {}

    def get(self, bench, lang, size, iterations):
        key = (bench, lang, size, iterations)
        if key in self.cache:
            return self.cache[key]
        source = os.path.join(self.bench_dir, bench, f"{bench}.{lang}")
        with open(source) as f:
            text = f.read()
        if size is not None:  # the start-up program has no sizes
            text = rewrite_constants(text, size, iterations, source)
        directory = os.path.join(self.work_dir, "programs",
                                 bench if size is None else f"{bench}-{size}x{iterations}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{bench}.{lang}")
        with open(path, "w") as f:
            f.write(text)
        if lang == "c":
            binary = os.path.join(directory, bench)
            result = subprocess.run([self.cc, "-O2", "-o", binary, path],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if result.returncode != 0:
                raise RuntimeError(f"{self.cc} failed on {path}:\n{result.stdout}")
            path = binary
        self.cache[key] = path
        return path


# --------------------------------------------------------------------------
# Runtimes.


def first_line(command):
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=30)
        return (result.stdout.strip().splitlines() or ["?"])[0]
    except (OSError, subprocess.SubprocessError):
        return "?"


def build_sl(root, work_dir, compilation_mode):
    """Builds //languages/sl:sl and copies the binary into the work directory."""
    bazel = shutil.which("bazel")
    if not bazel:
        log("bench: bazel not found; pass --sl=<path> to benchmark Morel")
        return None
    command = [bazel, "build", "-c", compilation_mode, "//languages/sl:sl"]
    log(f"bench: {' '.join(command[1:])} (waits for the Bazel lock if others build)")
    result = subprocess.run(command, cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        tail = "\n".join(result.stdout.strip().splitlines()[-15:])
        loud(f"building //languages/sl:sl failed; Morel is skipped\n{tail}")
        return None
    info = subprocess.run([bazel, "info", "-c", compilation_mode, "bazel-bin"], cwd=root,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    binary = os.path.join(info.stdout.strip(), "languages", "sl", "sl")
    if info.returncode != 0 or not os.path.exists(binary):
        binary = os.path.join(root, "bazel-bin", "languages", "sl", "sl")
    if not os.path.exists(binary):
        loud(f"built //languages/sl:sl but cannot find the binary ({binary})")
        return None
    # A private copy: concurrent builds by others must not swap it mid-run.
    copy = os.path.join(work_dir, "sl")
    shutil.copy2(binary, copy)
    os.chmod(copy, 0o755)
    return copy


def detect_runtimes(args, root, work_dir):
    """Returns ({runtime: command prefix}, {runtime: version}, {runtime: reason skipped})."""
    wanted = args.runtimes.split(",") if args.runtimes else list(RUNTIMES)
    for name in wanted:
        if name not in RUNTIMES:
            sys.exit(f"bench: unknown runtime '{name}' (known: {', '.join(RUNTIMES)})")
    present, versions, skipped = {}, {}, {}

    if any(m in wanted for m in MORELS):
        sl = args.sl
        if sl:
            if not os.path.exists(sl):
                sys.exit(f"bench: --sl={sl} does not exist")
            sl = os.path.abspath(sl)
        elif args.no_build:
            skipped["morel"] = "--no-build and no --sl"
        else:
            sl = build_sl(root, work_dir, args.compilation_mode)
            if not sl:
                skipped["morel"] = "//languages/sl:sl did not build"
        if sl:
            version = f"{args.sl or '//languages/sl:sl -c ' + args.compilation_mode}"
            if "morel" in wanted:
                present["morel"] = [sl]
                versions["morel"] = version
            if "morel-interp" in wanted:
                present["morel-interp"] = [sl, INTERP_FLAG]
                versions["morel-interp"] = f"{version} {INTERP_FLAG}"
            if "morel-bc" in wanted:
                present["morel-bc"] = [sl, BYTECODE_FLAG]
                versions["morel-bc"] = f"{version} {BYTECODE_FLAG}"
            if "morel-bc-interp" in wanted:
                present["morel-bc-interp"] = [sl, BYTECODE_FLAG, INTERP_FLAG]
                versions["morel-bc-interp"] = f"{version} {BYTECODE_FLAG} {INTERP_FLAG}"
        else:
            for name in MORELS:
                if name in wanted:
                    skipped[name] = skipped.get("morel", "not available")

    for name, binary, version_args in (("lua5.4", "lua5.4", ["-v"]),
                                       ("luajit", "luajit", ["-v"]),
                                       ("node", "node", ["--version"])):
        if name not in wanted:
            continue
        path = shutil.which(binary)
        if path:
            present[name] = [path]
            versions[name] = first_line([path] + version_args)
        else:
            skipped[name] = f"'{binary}' not on PATH"
    if "c" in wanted:
        cc = shutil.which(args.cc)
        if cc:
            present["c"] = []  # the compiled binary is the whole command
            versions["c"] = first_line([cc, "--version"]) + " -O2"
        else:
            skipped["c"] = f"'{args.cc}' not on PATH"
    return present, versions, skipped


# --------------------------------------------------------------------------
# Running.


class Run:
    def __init__(self):
        self.wall = []        # seconds per process
        self.iterations = []  # per process: [ns per in-process iteration]
        self.checksums = []   # per process
        self.heap = []        # per process: Morel's heap statistics ({name: number}) or None
        self.errors = []


def parse_heap_line(stderr):
    """The last '[engine] heap name=value ...' line of a Morel run as
    {name: int or float}, or None."""
    found = None
    for line in stderr.splitlines():
        m = HEAP_RE.match(line.strip())
        if m:
            found = {}
            for item in m.group(1).split():
                name, _, value = item.partition("=")
                found[name] = float(value) if "." in value else int(value)
    return found


def run_once(command, timeout):
    """Runs one process. Returns (wall seconds, [iteration ns], checksum,
    error, heap statistics or None)."""
    start = time.perf_counter()
    try:
        result = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, None, f"timed out after {timeout} s", None
    wall = time.perf_counter() - start
    iterations, checksum = [], None
    for line in result.stdout.splitlines():
        line = line.strip()
        m = ITERATION_RE.match(line)
        if m:
            iterations.append(int(m.group(2)))
            continue
        m = CHECKSUM_RE.match(line)
        if m:
            checksum = m.group(1)
    if result.returncode != 0:
        detail = (result.stderr.strip() or result.stdout.strip()).splitlines()[-3:]
        return None, None, None, f"exit status {result.returncode}: {' | '.join(detail)}", None
    if checksum is None:
        return None, None, None, "printed no 'checksum' line", None
    return wall, iterations, checksum, None, parse_heap_line(result.stderr)


# The start-up benchmark's process runner, compiled into the work directory:
# Python cannot report a child's own peak RSS (a forked or vforked child
# counts the Python process's pages until it execs), a small C parent can.
# Usage: startup_runner REPORT COMMAND...; writes "<wall ns> <peak RSS KiB>
# <exit status>" to REPORT.
STARTUP_RUNNER_C = r"""
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  struct timespec begin, end;
  clock_gettime(CLOCK_MONOTONIC, &begin);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    _exit(127);
  }
  int status;
  struct rusage usage;
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return 2;
  clock_gettime(CLOCK_MONOTONIC, &end);
  FILE* report = fopen(argv[1], "w");
  if (report == NULL) return 2;
  long long ns = (end.tv_sec - begin.tv_sec) * 1000000000LL + (end.tv_nsec - begin.tv_nsec);
  fprintf(report, "%lld %ld %d\n", ns, usage.ru_maxrss,
          WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  return fclose(report) == 0 ? 0 : 2;
}
"""


def build_startup_runner(cc, work_dir):
    source = os.path.join(work_dir, "startup_runner.c")
    binary = os.path.join(work_dir, "startup_runner")
    with open(source, "w") as f:
        f.write(STARTUP_RUNNER_C)
    result = subprocess.run([cc, "-O2", "-o", binary, source], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit(f"bench: {cc} failed on {source}:\n{result.stdout}")
    return binary


def run_startup_once(runner, command, timeout, scratch):
    """Runs one process under the runner. Returns (wall seconds, peak RSS in
    bytes, stdout, error)."""
    report = scratch + ".report"
    try:
        result = subprocess.run([runner, report] + command, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, None, f"timed out after {timeout} s"
    try:
        with open(report) as f:
            ns, rss_kib, status = (int(x) for x in f.read().split())
        os.remove(report)
    except (OSError, ValueError):
        return None, None, None, f"the start-up runner failed: {result.stderr.strip()[-200:]}"
    if status != 0:
        detail = (result.stderr.strip() or result.stdout.strip()).splitlines()[-3:]
        return None, None, None, f"exit status {status}: {' | '.join(detail)}"
    return ns / 1e9, rss_kib * 1024, result.stdout, None


def run_startup(present, programs, runs, timeout, work_dir, cc):
    """The start-up benchmark: every runtime runs testing/benchmarks/startup
    `runs` times, round robin. Returns {runtime: {"wall": [s], "rss": [bytes],
    "errors": [...]}}."""
    runner = build_startup_runner(cc, work_dir)
    order = [r for r in RUNTIMES if r in present]
    results = {r: {"wall": [], "rss": [], "errors": []} for r in order}
    scratch = os.path.join(work_dir, "startup-output")
    for round_index in range(runs):
        shift = round_index % len(order)
        for runtime in order[shift:] + order[:shift]:
            program = programs.get("startup", RUNTIMES[runtime], None, None)
            wall, rss, stdout, error = run_startup_once(runner, present[runtime] + [program],
                                                        timeout, scratch)
            if error is None and stdout.strip() != "checksum 0":
                error = f"printed {stdout.strip()[:60]!r}, not 'checksum 0'"
            if error:
                results[runtime]["errors"].append(error)
                log(f"bench: [start-up {round_index + 1}/{runs}] {runtime}: FAILED: {error}")
                continue
            results[runtime]["wall"].append(wall)
            results[runtime]["rss"].append(rss)
    return results


def print_startup_table(results, runs):
    order = [r for r in RUNTIMES if r in results]
    peers = [r for r in order if r not in MORELS and results[r]["wall"]]
    print(f"\nStart-up: a program that prints one line, {runs} processes per runtime "
          f"(interleaved)\n")
    header = f"{'runtime':<16} {'median':>9} {'min':>9} {'peak RSS':>10}"
    header += "".join(f" {'vs ' + p:>11}" for p in peers)
    print(header)
    print("-" * len(header))
    for runtime in order:
        run = results[runtime]
        if not run["wall"]:
            print(f"{runtime:<16} FAILED: {run['errors'][0] if run['errors'] else '?'}")
            continue
        wall = median(run["wall"])
        line = (f"{runtime:<16} {wall * 1000:>7.1f}ms {min(run['wall']) * 1000:>7.1f}ms "
                f"{median(run['rss']) / 2**20:>7.1f}MiB")
        if runtime in MORELS:
            for peer in peers:
                line += f" {wall / median(results[peer]['wall']):>10.2f}x"
        print(line)
    print("\n(ratios: Morel's median time over the peer's; above 1, Morel starts slower)")


OPT_DONE_TIME_RE = re.compile(r"\|Time +(\d+)\( *(\d+)\+(\d+) *\)ms")


def compilation_stats(sl, benchmarks, programs, size_of, timeout, work_dir):
    """Runs each SL benchmark once with --engine.TraceCompilation into a log
    and counts what the compiler did. Returns {bench: {...}}."""
    stats = {}
    for b in benchmarks:
        program = programs.get(b.name, "sl", size_of(b), 1)
        log_path = os.path.join(work_dir, f"{b.name}.compilation.log")
        if os.path.exists(log_path):
            os.remove(log_path)
        command = [sl, "--engine.TraceCompilation", f"--engine.Log={log_path}", program]
        _, _, _, error, _ = run_once(command, timeout)
        entry = {"compilations": 0, "compile_ms": 0, "pe_ms": 0, "codegen_ms": 0,
                 "deopts": 0, "invalidations": 0, "failures": 0, "failure_reasons": [],
                 "error": error}
        if os.path.exists(log_path):
            with open(log_path) as f:
                for line in f:
                    if line.startswith("[engine] opt done"):
                        entry["compilations"] += 1
                        m = OPT_DONE_TIME_RE.search(line)
                        if m:
                            entry["compile_ms"] += int(m.group(1))
                            entry["pe_ms"] += int(m.group(2))
                            entry["codegen_ms"] += int(m.group(3))
                    elif line.startswith("[engine] opt deopt"):
                        entry["deopts"] += 1
                    elif line.startswith("[engine] opt inval."):
                        entry["invalidations"] += 1
                    elif line.startswith("[engine] opt failed"):
                        entry["failures"] += 1
                        reason = line.split("|Reason: ", 1)[-1].split("|")[0].strip()
                        entry["failure_reasons"].append(reason)
        stats[b.name] = entry
    return stats


def print_compilation_stats(stats, sizes):
    print("\nMorel compilations (one run per benchmark, --engine.TraceCompilation; "
          "Time = PE+optimization | code generation, summed over compilations)")
    header = ["benchmark", "size", "compiled", "time", "PE+opt", "codegen", "deopts",
              "inval.", "failed"]
    rows = [header]
    for name, e in stats.items():
        rows.append([name, str(sizes.get(name, "")), str(e["compilations"]),
                     f"{e['compile_ms']} ms", f"{e['pe_ms']} ms", f"{e['codegen_ms']} ms",
                     str(e["deopts"]), str(e["invalidations"]),
                     str(e["failures"]) + (f" ({'; '.join(sorted(set(e['failure_reasons'])))})"
                                           if e["failures"] else "")])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for i, r in enumerate(rows):
        print("| " + " | ".join(c.ljust(widths[j]) for j, c in enumerate(r)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def run_matrix(benchmarks, present, programs, size_of, iterations_of, runs, timeout, label,
               extra_flags=None):
    """Runs every (benchmark, runtime) `runs` times, round-robin; a runtime in
    `extra_flags` gets those flags before the program. Returns
    {bench: {runtime: Run}}."""
    results = {b.name: {r: Run() for r in present} for b in benchmarks}
    order = [r for r in RUNTIMES if r in present]
    total = runs * len(benchmarks) * len(order)
    done = 0
    for round_index in range(runs):
        for bench in benchmarks:
            # Rotate the order each round so no runtime always runs first.
            shift = round_index % len(order)
            for runtime in order[shift:] + order[:shift]:
                done += 1
                program = programs.get(bench.name, RUNTIMES[runtime],
                                       size_of(bench), iterations_of(bench))
                command = present[runtime] + (extra_flags or {}).get(runtime, []) + [program]
                wall, iterations, checksum, error, heap = run_once(command, timeout)
                run = results[bench.name][runtime]
                if error:
                    run.errors.append(error)
                    log(f"bench: [{label} {done}/{total}] {bench.name} on {runtime}: FAILED: {error}")
                    continue
                run.wall.append(wall)
                run.iterations.append(iterations)
                run.heap.append(heap)
                run.checksums.append(checksum)
                log(f"bench: [{label} {done}/{total}] {bench.name} on {runtime}: "
                    f"{wall:.3f} s, checksum {checksum}")
    return results


def check(benchmarks, results, expected_of):
    """Checksum agreement per benchmark. Returns {bench: (valid, message)}."""
    verdicts = {}
    for bench in benchmarks:
        per_runtime = results[bench.name]
        seen = {}
        for runtime, run in per_runtime.items():
            for checksum in run.checksums:
                seen.setdefault(checksum, set()).add(runtime)
        failed = [r for r, run in per_runtime.items() if run.errors]
        expected = expected_of(bench)
        problems = []
        if len(seen) > 1:
            parts = "; ".join(f"{c} from {', '.join(sorted(rs))}" for c, rs in seen.items())
            problems.append(f"CHECKSUM MISMATCH: {parts}")
        if expected is not None and seen and any(c != expected for c in seen):
            problems.append(f"expected checksum {expected}, got {', '.join(sorted(seen))}")
        if failed:
            problems.append(f"failed on {', '.join(failed)}")
        if problems:
            message = f"{bench.name}: " + "; ".join(problems)
            loud(message)
            verdicts[bench.name] = (False, message)
        else:
            checksum = next(iter(seen)) if seen else None
            verdicts[bench.name] = (True, checksum)
    return verdicts


def last_third(n):
    """Iterations in the steady-state window out of n: the last third, at least one."""
    return max(1, n // 3)


def heap_figures(benchmarks, present, programs, wresults, curves, wsizes, witers, runs,
                 timeout):
    """Morel's heap in the warm-up runs: {bench: {runtime: {...}}}.

    The warm-up processes ran with HEAP_FLAG and report totals for the whole
    process. To see the steady state, each Morel benchmark runs once more
    (--warmup-runs times) with only the first k = n - last_third(n)
    iterations: the differences are the bytes allocated and the collections
    made by the last third of the iterations (the window of the
    steady-state table); both are deterministic up to compilation timing.
    Collection time is not (on a busy machine it varies by 2x between
    identical processes), so the last third's GC share is estimated as its
    collections times the whole process's mean collection time, divided by
    the window's in-process time."""
    morels = {m: present[m] for m in MORELS if m in present}
    if not morels:
        return {}
    prefix = {b.name: witers[b.name] - last_third(witers[b.name]) for b in benchmarks}
    presults = run_matrix(benchmarks, morels, programs, lambda b: wsizes[b.name],
                          lambda b: prefix[b.name], runs, timeout, "heap",
                          {m: [HEAP_FLAG] for m in morels})

    def med(rows, name):
        return statistics.median(h[name] for h in rows)

    figures = {}
    for b in benchmarks:
        n, k = witers[b.name], prefix[b.name]
        for runtime in morels:
            full = [h for h in wresults[b.name][runtime].heap if h]
            if not full:
                continue
            part = [h for h in presults[b.name][runtime].heap if h]
            entry = {
                "iterations": n,
                "allocated_bytes": med(full, "allocated_bytes"),
                "bytes_per_iteration": med(full, "allocated_bytes") / n,
                "collections": med(full, "collections"),
                "gc_ms": med(full, "gc_ms"),
                "total_ms": med(full, "total_ms"),
                "gc_percent": med(full, "gc_percent"),
                "heap_bytes": med(full, "heap_bytes"),
                "markers": med(full, "markers"),
                "last_third_iterations": n - k,
                "last_third_bytes_per_iteration": None,
                "last_third_collections": None,
                "last_third_gc_percent": None,
            }
            if part:
                entry["last_third_bytes_per_iteration"] = max(
                    0.0, (entry["allocated_bytes"] - med(part, "allocated_bytes")) / (n - k))
                entry["last_third_collections"] = max(
                    0, entry["collections"] - med(part, "collections"))
                curve = curves.get(b.name, {}).get(runtime)  # complete runs only: n points
                if curve and entry["collections"] > 0:
                    window_ms = sum(curve[k:])
                    mean_gc_ms = entry["gc_ms"] / entry["collections"]
                    gc_ms = entry["last_third_collections"] * mean_gc_ms
                    if window_ms > 0:
                        entry["last_third_gc_percent"] = min(100.0, 100 * gc_ms / window_ms)
                elif entry["collections"] == 0:
                    entry["last_third_gc_percent"] = 0.0
            figures.setdefault(b.name, {})[runtime] = entry
    return figures


def format_bytes(count):
    if count is None:
        return "-"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:.0f} B"


def format_percent(value):
    return "-" if value is None else f"{value:.1f}%"


def print_heap_table(figures, wsizes):
    if not figures:
        return
    print("\nMorel's heap in the warm-up runs (--engine.PrintHeapStatistics): bytes allocated "
          "per iteration and the share of wall time spent in collections, over the last "
          "third of the iterations (the steady-state window: the difference from a second "
          "process that stops before it) and over the whole process")
    header = ["benchmark", "size", "runtime", "alloc/iter", "GCs", "GC %", "alloc/iter (run)",
              "GCs (run)", "GC time (run)", "GC % (run)", "heap"]
    rows = [header]
    for name, per_runtime in figures.items():
        first = True
        for runtime, e in per_runtime.items():
            rows.append([name if first else "", str(wsizes[name]) if first else "", runtime,
                         format_bytes(e["last_third_bytes_per_iteration"]),
                         "-" if e["last_third_collections"] is None
                         else f"{e['last_third_collections']:g}",
                         format_percent(e["last_third_gc_percent"]),
                         format_bytes(e["bytes_per_iteration"]), f"{e['collections']:g}",
                         format_seconds(e["gc_ms"] / 1000), format_percent(e["gc_percent"]),
                         format_bytes(e["heap_bytes"])])
            first = False
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for i, r in enumerate(rows):
        print("  ".join(c.rjust(widths[j]) if j >= 3 else c.ljust(widths[j])
                        for j, c in enumerate(r)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print("GC time: collections (marking, rebuilding free lists), not the lazy sweeping "
          "done by allocation. Last third: bytes and GCs are differences of medians; GC % "
          "is its GCs times the run's mean collection time over the window's time.")


# --------------------------------------------------------------------------
# Reporting.


def median(values):
    return statistics.median(values) if values else None


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def format_seconds(seconds):
    if seconds is None:
        return "-"
    if seconds >= 100:
        return f"{seconds:.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.001:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1e6:.1f} us"


def format_ratio(ratio):
    if ratio is None:
        return "-"
    if ratio >= 100:
        return f"{ratio:.0f}x"
    if ratio >= 10:
        return f"{ratio:.1f}x"
    return f"{ratio:.2f}x"


def ratio_table(benchmarks, present, times, verdicts):
    """{bench: {morel: {peer: ratio}}} from {bench: {runtime: seconds}}."""
    ratios = {}
    for bench in benchmarks:
        row = {}
        if not verdicts[bench.name][0]:
            ratios[bench.name] = row
            continue
        for morel in MORELS:
            mt = times[bench.name].get(morel)
            if mt is None:
                continue
            row[morel] = {}
            for peer in PEERS:
                pt = times[bench.name].get(peer)
                if pt:
                    row[morel][peer] = mt / pt
        ratios[bench.name] = row
    return ratios


def geomean_row(ratios, present):
    result = {}
    for morel in MORELS:
        for peer in PEERS:
            g = geomean([r.get(morel, {}).get(peer) for r in ratios.values()])
            if g is not None:
                result.setdefault(morel, {})[peer] = g
    return result


def print_table(title, benchmarks, present, times, ratios, verdicts, sizes):
    order = [r for r in RUNTIMES if r in present]
    peers = [p for p in PEERS if p in present]
    header = ["benchmark", "size", "runtime", "median"] + [f"/{p}" for p in peers] + ["checksum"]
    rows = []
    for bench in benchmarks:
        valid, info = verdicts[bench.name]
        first = True
        for runtime in order:
            cells = [bench.name if first else "", str(sizes[bench.name]) if first else "",
                     runtime, format_seconds(times[bench.name].get(runtime))]
            for peer in peers:
                if runtime in MORELS and valid:
                    cells.append(format_ratio(ratios[bench.name].get(runtime, {}).get(peer)))
                else:
                    cells.append("")
            if first:
                cells.append(info if valid else "INVALID (see above)")
            else:
                cells.append("")
            rows.append(cells)
            first = False
        rows.append(None)
    means = geomean_row(ratios, present)
    for morel in MORELS:
        if morel in means:
            rows.append(["geomean", "", morel, ""] +
                        [format_ratio(means[morel].get(p)) for p in peers] + [""])
    widths = [len(h) for h in header]
    for row in rows:
        if row:
            widths = [max(w, len(c)) for w, c in zip(widths, row)]

    def line(cells):
        out = []
        for i, (cell, width) in enumerate(zip(cells, widths)):
            right = i == 3 or (4 <= i < 4 + len(peers))
            out.append(cell.rjust(width) if right else cell.ljust(width))
        return "  ".join(out).rstrip()

    print()
    print(title)
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row) if row else "")
    print("/peer = Morel's time divided by the peer's (above 1: Morel is slower).")


# --------------------------------------------------------------------------
# SVG charts (written by hand: no plotting library needed).


def svg_text(x, y, text, size=12, anchor="start", weight="normal", color="#222", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{color}" {extra}>{html.escape(str(text))}</text>')


def nice_log_ticks(low, high):
    ticks = []
    exponent = math.floor(math.log10(low))
    while 10 ** exponent <= high * 1.0001:
        for m in (1, 2, 5):
            v = m * 10 ** exponent
            if low <= v <= high:
                ticks.append(v)
        exponent += 1
    if len(ticks) > 12:
        ticks = [t for t in ticks if round(t / 10 ** math.floor(math.log10(t)), 6) == 1]
    return ticks


def format_ms(ms):
    if ms >= 1000:
        return f"{ms / 1000:g} s"
    if ms >= 1:
        return f"{ms:g} ms"
    return f"{ms * 1000:g} µs"


def warmup_svg(bench, size, curves):
    """curves: {runtime: [ms per iteration]} -> SVG text (log-scale y)."""
    width, height = 760, 440
    left, right, top, bottom = 78, 190, 48, 58
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for ys in curves.values() for v in ys if v > 0]
    n = max(len(ys) for ys in curves.values())
    low, high = min(values), max(values)
    low_log = math.floor(math.log10(low) * 4) / 4
    high_log = math.ceil(math.log10(high) * 4) / 4
    if high_log - low_log < 0.5:
        low_log -= 0.25
        high_log += 0.25

    def x_of(i):  # i is 1-based
        return left + (0 if n == 1 else (i - 1) * plot_w / (n - 1))

    def y_of(v):
        return top + plot_h - (math.log10(v) - low_log) * plot_h / (high_log - low_log)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             svg_text(left, 28, f"Warm-up: {bench} (size {size})", 16, weight="bold")]
    # Grid and y axis (log scale).
    for t in nice_log_ticks(10 ** low_log, 10 ** high_log):
        y = y_of(t)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                     f'stroke="#e3e3e3"/>')
        parts.append(svg_text(left - 8, y + 4, format_ms(t), 11, "end", color="#444"))
    # x axis ticks.
    step = max(1, round(n / 10))
    ticks = list(range(1, n + 1, step))
    if n not in ticks:
        ticks.append(n)
    for i in ticks:
        x = x_of(i)
        parts.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" '
                     f'y2="{top + plot_h + 5}" stroke="#444"/>')
        parts.append(svg_text(x, top + plot_h + 19, i, 11, "middle", color="#444"))
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" '
                 f'fill="none" stroke="#444"/>')
    parts.append(svg_text(left + plot_w / 2, height - 14, "iteration (in one process)", 12,
                          "middle"))
    parts.append(svg_text(18, top + plot_h / 2, "time per iteration (log scale)", 12, "middle",
                          extra=f'transform="rotate(-90 18 {top + plot_h / 2:.1f})"'))
    # Curves.
    for runtime in [r for r in RUNTIMES if r in curves]:
        ys = curves[runtime]
        points = " ".join(f"{x_of(i + 1):.1f},{y_of(max(v, 10 ** low_log)):.1f}"
                          for i, v in enumerate(ys))
        dash = ' stroke-dasharray="6 3"' if runtime.endswith("interp") else ""
        parts.append(f'<polyline points="{points}" fill="none" stroke="{COLORS[runtime]}" '
                     f'stroke-width="2"{dash}/>')
        for i, v in enumerate(ys):
            parts.append(f'<circle cx="{x_of(i + 1):.1f}" cy="{y_of(max(v, 10 ** low_log)):.1f}" '
                         f'r="2.2" fill="{COLORS[runtime]}"/>')
    # Legend.
    lx, ly = left + plot_w + 18, top + 8
    parts.append(svg_text(lx, ly, "runtime", 12, weight="bold"))
    for k, runtime in enumerate([r for r in RUNTIMES if r in curves]):
        y = ly + 22 + k * 22
        dash = ' stroke-dasharray="6 3"' if runtime.endswith("interp") else ""
        parts.append(f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 24}" y2="{y - 4}" '
                     f'stroke="{COLORS[runtime]}" stroke-width="2.5"{dash}/>')
        parts.append(svg_text(lx + 30, y, LABELS[runtime], 11))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ratio_color(ratio):
    """Green below 1 (Morel faster), white at 1, red above; log scale, saturating at 100x."""
    if ratio is None:
        return "#f4f4f4"
    t = max(-1.0, min(1.0, math.log10(ratio) / 2))
    if t >= 0:
        g = int(255 - 155 * t)
        return f"rgb(255,{g},{int(255 - 175 * t)})"
    t = -t
    return f"rgb({int(255 - 175 * t)},{int(255 - 55 * t)},{int(255 - 175 * t)})"


def ratio_svg(panels):
    """panels: [(title, row names, {row: {morel: {peer: ratio}}})] -> heat-map tables."""
    columns = [(m, p) for m in MORELS for p in PEERS
               if any(r.get(m, {}).get(p) is not None
                      for _, _, table in panels for r in table.values())]
    cell_w, cell_h, label_w = 86, 26, 120
    width = max(520, label_w + cell_w * max(1, len(columns)) + 40)
    y = 60
    body = []
    for title, rows, table in panels:
        body.append(svg_text(20, y, title, 14, weight="bold"))
        y += 14
        # Column headers: engine over peer.
        for j, (m, p) in enumerate(columns):
            x = label_w + j * cell_w + cell_w / 2
            short = {"morel": "Morel", "morel-interp": "interp", "morel-bc": "bytecode",
                     "morel-bc-interp": "bc interp"}[m]
            body.append(svg_text(x, y + 14, short, 11,
                                 "middle", color=COLORS[m], weight="bold"))
            body.append(svg_text(x, y + 28, f"÷ {p}", 11, "middle", color="#333"))
        y += 36
        for name in rows:
            row = table.get(name, {})
            weight = "bold" if name == "geomean" else "normal"
            body.append(svg_text(label_w - 10, y + cell_h / 2 + 4, name, 12, "end",
                                 weight=weight))
            for j, (m, p) in enumerate(columns):
                ratio = row.get(m, {}).get(p)
                x = label_w + j * cell_w
                body.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" '
                            f'fill="{ratio_color(ratio)}" stroke="#ccc"/>')
                text = format_ratio(ratio) if ratio is not None else "n/a"
                body.append(svg_text(x + (cell_w - 2) / 2, y + cell_h / 2 + 3, text, 12,
                                     "middle", weight=weight))
            y += cell_h
        y += 30
    # Legend: the color scale.
    body.append(svg_text(20, y, "Morel's time ÷ peer's time:", 12))
    stops = [0.1, 0.3, 1, 3, 10, 30, 100]
    for k, v in enumerate(stops):
        x = 200 + k * 46
        body.append(f'<rect x="{x}" y="{y - 13}" width="44" height="18" '
                    f'fill="{ratio_color(v)}" stroke="#ccc"/>')
        body.append(svg_text(x + 22, y + 1, f"{v:g}x", 10, "middle"))
    y += 16
    body.append(svg_text(20, y + 10, "below 1: Morel faster (green); above 1: Morel slower (red)",
                         11, color="#555"))
    height = y + 30
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="white"/>',
            svg_text(20, 22, "Morel against its peers", 16, weight="bold")]
    return "\n".join(head + body + ["</svg>"]) + "\n"


# --------------------------------------------------------------------------
# Main.


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Sizes come from testing/benchmarks/benchmarks.txt.")
    parser.add_argument("--smoke", action="store_true",
                        help="one run, one iteration, smoke sizes; only checks that every "
                             "program runs and that the checksums agree (for CI)")
    parser.add_argument("--sl", help="use this SL launcher instead of building "
                                     "//languages/sl:sl")
    parser.add_argument("--no-build", action="store_true",
                        help="do not run bazel (Morel is skipped unless --sl is given)")
    parser.add_argument("--compilation-mode", default="opt",
                        help="bazel -c mode for the launcher (default: opt)")
    parser.add_argument("--runtimes", help="comma-separated subset of: " + ",".join(RUNTIMES))
    parser.add_argument("--benchmarks", help="comma-separated subset of the manifest's names")
    parser.add_argument("--runs", type=int, default=5,
                        help="processes per benchmark and runtime for the table (default 5)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every table and warm-up size by this (fib, "
                             "binarytrees: adds log_phi(scale), log_2(scale) to n instead)")
    parser.add_argument("--size", action="append", default=[], metavar="NAME=N",
                        help="override one benchmark's table size (repeatable)")
    parser.add_argument("--startup", action="store_true",
                        help="only the start-up benchmark: each runtime runs a program that "
                             "prints one line (testing/benchmarks/startup), --startup-runs "
                             "times; median and minimum wall time, median peak RSS")
    parser.add_argument("--startup-runs", type=int, default=30,
                        help="processes per runtime in --startup mode (default 30)")
    parser.add_argument("--no-warmup", action="store_true", help="skip the warm-up mode")
    parser.add_argument("--warmup-only", action="store_true", help="skip the table runs")
    parser.add_argument("--warmup-iterations", type=int,
                        help="in-process iterations in warm-up mode (default: manifest)")
    parser.add_argument("--no-heap", action="store_true",
                        help="in warm-up mode, skip the heap table (and the extra Morel "
                             "process per benchmark it takes)")
    parser.add_argument("--warmup-runs", type=int, default=1,
                        help="processes per benchmark and runtime in warm-up mode; the "
                             "curve is the per-iteration median (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per process")
    parser.add_argument("--cc", default="gcc", help="C compiler (default gcc)")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "morel-bench"),
                        help="output directory for results.json and the charts "
                             "(default: $TMPDIR/morel-bench)")
    parser.add_argument("--root", default=os.environ.get("BUILD_WORKSPACE_DIRECTORY",
                                                         DEFAULT_ROOT),
                        help="workspace root (default: this script's workspace)")
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    bench_dir = os.path.join(root, "testing", "benchmarks")
    out_dir = os.path.abspath(args.out)
    work_dir = os.path.join(out_dir, "work")
    os.makedirs(work_dir, exist_ok=True)

    benchmarks = read_manifest(bench_dir)
    if args.benchmarks:
        names = args.benchmarks.split(",")
        unknown = [n for n in names if n not in {b.name for b in benchmarks}]
        if unknown:
            sys.exit(f"bench: unknown benchmark(s) {', '.join(unknown)}")
        benchmarks = [b for b in benchmarks if b.name in names]
    overrides = {}
    for item in args.size:
        name, _, value = item.partition("=")
        if not value.isdigit():
            sys.exit(f"bench: --size expects NAME=N, got '{item}'")
        overrides[name] = int(value)

    def scaled(bench, size):
        if args.scale == 1.0:
            return size
        if bench.name in EXPONENTIAL:  # work grows as base^n
            base = EXPONENTIAL[bench.name]
            return max(2, size + round(math.log(args.scale) / math.log(base)))
        return max(1, int(size * args.scale))

    present, versions, skipped = detect_runtimes(args, root, work_dir)
    for name, reason in skipped.items():
        log(f"bench: skipping {name}: {reason}")
    if not present:
        sys.exit("bench: no runtime available")
    log("bench: runtimes: " + ", ".join(f"{r} ({versions[r]})" for r in RUNTIMES
                                         if r in present))
    programs = Programs(bench_dir, work_dir, shutil.which(args.cc) or args.cc)

    report = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": {"machine": platform.machine(), "system": platform.platform(),
                 "processor": platform.processor(), "cpus": os.cpu_count()},
        "mode": "smoke" if args.smoke else "full",
        "runtimes": versions,
        "skipped": skipped,
        "ratio": "Morel's time divided by the peer's time (above 1: Morel is slower)",
    }
    all_valid = True

    if args.startup:
        startup = run_startup(present, programs, args.startup_runs, args.timeout, work_dir,
                              shutil.which(args.cc) or args.cc)
        print_startup_table(startup, args.startup_runs)
        report["mode"] = "startup"
        report["startup"] = {
            r: {"median_seconds": median(run["wall"]) if run["wall"] else None,
                "median_peak_rss_bytes": median(run["rss"]) if run["rss"] else None,
                "wall_seconds": run["wall"], "peak_rss_bytes": run["rss"],
                "errors": run["errors"]} for r, run in startup.items()}
        all_valid = all(run["wall"] and not run["errors"] for run in startup.values())
    elif args.smoke:
        results = run_matrix(benchmarks, present, programs, lambda b: b.smoke, lambda b: 1,
                             1, args.timeout, "smoke")
        verdicts = check(benchmarks, results, lambda b: b.smoke_checksum)
        report["smoke"] = {
            b.name: {"size": b.smoke, "expected_checksum": b.smoke_checksum,
                     "valid": verdicts[b.name][0],
                     "checksums": {r: run.checksums for r, run in results[b.name].items()},
                     "errors": {r: run.errors for r, run in results[b.name].items()
                                if run.errors}}
            for b in benchmarks}
        all_valid = all(v[0] for v in verdicts.values())
        print()
        width = max([10] + [len(b.name) for b in benchmarks])
        for b in benchmarks:
            valid, info = verdicts[b.name]
            ran = ", ".join(r for r in RUNTIMES if r in present)
            print(f"{'ok  ' if valid else 'FAIL'} {b.name:<{width}} "
                  f"{('checksum ' + str(info) + ' on ' + ran) if valid else info}")
        if skipped:
            print("skipped: " + ", ".join(f"{r} ({why})" for r, why in skipped.items()))
    else:
        sizes = {b.name: overrides.get(b.name, scaled(b, b.size)) for b in benchmarks}
        ratios = None
        if not args.warmup_only:
            results = run_matrix(benchmarks, present, programs, lambda b: sizes[b.name],
                                 lambda b: 1, args.runs, args.timeout, "table")
            verdicts = check(benchmarks, results, lambda b: None)
            all_valid = all(v[0] for v in verdicts.values()) and all_valid
            times = {b.name: {r: median(run.wall) for r, run in results[b.name].items()
                              if run.wall} for b in benchmarks}
            ratios = ratio_table(benchmarks, present, times, verdicts)
            print_table(f"Median wall time of {args.runs} runs per runtime (whole process, "
                        f"interleaved)", benchmarks, present, times, ratios, verdicts, sizes)
            report["table"] = {
                b.name: {
                    "size": sizes[b.name],
                    "valid": verdicts[b.name][0],
                    "checksum": verdicts[b.name][1] if verdicts[b.name][0] else None,
                    "problem": None if verdicts[b.name][0] else verdicts[b.name][1],
                    "median_seconds": times[b.name],
                    "ratios": ratios[b.name],
                    "runs": {r: {"wall_seconds": run.wall, "checksums": run.checksums,
                                 "in_process_ns": run.iterations, "errors": run.errors}
                             for r, run in results[b.name].items()},
                } for b in benchmarks}
            report["table_geomean"] = geomean_row(ratios, present)
            if "morel" in present:
                compiled = compilation_stats(present["morel"][0], benchmarks, programs,
                                             lambda b: sizes[b.name], args.timeout, work_dir)
                print_compilation_stats(compiled, sizes)
                report["compilation"] = compiled

        warm_ratios = None
        if not args.no_warmup:
            wsizes = {b.name: scaled(b, b.warmup_size) for b in benchmarks}
            witers = {b.name: args.warmup_iterations or b.warmup_iterations for b in benchmarks}
            # --no-heap also runs launchers that predate the flag.
            heap_flags = ({} if args.no_heap else
                          {m: [HEAP_FLAG] for m in MORELS if m in present})
            wresults = run_matrix(benchmarks, present, programs, lambda b: wsizes[b.name],
                                  lambda b: witers[b.name], args.warmup_runs, args.timeout,
                                  "warm-up", heap_flags)
            wverdicts = check(benchmarks, wresults, lambda b: None)
            all_valid = all(v[0] for v in wverdicts.values()) and all_valid
            report["warmup"] = {}
            steady = {}
            all_curves = {}
            os.makedirs(out_dir, exist_ok=True)
            for b in benchmarks:
                curves = {}
                for runtime, run in wresults[b.name].items():
                    complete = [it for it in run.iterations if len(it) == witers[b.name]]
                    if complete:
                        curves[runtime] = [statistics.median(col) / 1e6
                                           for col in zip(*complete)]
                all_curves[b.name] = curves
                # Steady state: median of the last third of the iterations.
                steady[b.name] = {r: statistics.median(ys[-last_third(len(ys)):]) / 1000
                                  for r, ys in curves.items()}
                report["warmup"][b.name] = {
                    "size": wsizes[b.name], "iterations": witers[b.name],
                    "valid": wverdicts[b.name][0],
                    "checksum": wverdicts[b.name][1] if wverdicts[b.name][0] else None,
                    "ms_per_iteration": curves,
                    "steady_state_seconds": steady[b.name]}
                if curves:
                    path = os.path.join(out_dir, f"warmup_{b.name}.svg")
                    with open(path, "w") as f:
                        f.write(warmup_svg(b.name, wsizes[b.name], curves))
            warm_ratios = ratio_table(benchmarks, present, steady, wverdicts)
            print_table(f"Warm-up: steady state (median of the last third of "
                        f"{max(witers.values())} in-process iterations)",
                        benchmarks, present, steady, warm_ratios, wverdicts, wsizes)
            report["steady_state_ratios"] = warm_ratios
            report["steady_state_geomean"] = geomean_row(warm_ratios, present)
            if not args.no_heap:
                heap = heap_figures([b for b in benchmarks if wverdicts[b.name][0]], present,
                                    programs, wresults, all_curves,
                                    wsizes, witers, args.warmup_runs, args.timeout)
                print_heap_table(heap, wsizes)
                for name, per_runtime in heap.items():
                    report["warmup"][name]["heap"] = per_runtime

        panels = []
        names = [b.name for b in benchmarks] + ["geomean"]
        if ratios is not None:
            panels.append(("Whole-process wall time (median of runs)", names,
                           dict(ratios, geomean=geomean_row(ratios, present))))
        if warm_ratios is not None:
            panels.append(("Steady state after warm-up (in-process iterations)", names,
                           dict(warm_ratios, geomean=geomean_row(warm_ratios, present))))
        if panels and any(m in present for m in MORELS):
            with open(os.path.join(out_dir, "ratios.svg"), "w") as f:
                f.write(ratio_svg(panels))
        charts = sorted(n for n in os.listdir(out_dir) if n.endswith(".svg"))
        with open(os.path.join(out_dir, "index.html"), "w") as f:
            f.write("<!doctype html><meta charset=utf-8><title>Morel benchmarks</title>\n"
                    "<body style='font-family:sans-serif'>\n<h1>Morel benchmarks</h1>\n"
                    f"<p>{html.escape(report['date'])} &middot; "
                    f"{html.escape(', '.join(f'{k}: {v}' for k, v in versions.items()))}</p>\n" +
                    "".join(f"<p><img src='{html.escape(c)}'></p>\n" for c in charts))

    report["valid"] = all_valid
    path = os.path.join(out_dir, "results.json")
    with open(path, "w") as f:
        json.dump(report, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"\nresults: {path}")
    if not args.smoke and not args.startup:
        print(f"charts:  {out_dir}/ratios.svg, {out_dir}/warmup_<benchmark>.svg "
              f"({out_dir}/index.html shows them all)")
    if not all_valid:
        loud("some benchmarks failed or disagree on their checksum (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
