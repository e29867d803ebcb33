#!/usr/bin/env python3
"""Runs a bounded fuzzing campaign on one fuzz target (see README.md).

    bazel run //tools/fuzz -- --target=NAME [--seconds=600] [--runs=N]
        [--engine=libfuzzer|replay] [--seed=N] [--out=DIR] [--timeout=S] [--list]
        [-- extra libFuzzer flags]

Targets are the cc_binary rules tagged `fuzz_target` (the
morel_fuzz_target macro of //testing/fuzz:fuzz.bzl); NAME is the rule name
or its label. The default engine builds the target with --config=fuzz
(clang-14, libFuzzer, ASan + UBSan) and runs libFuzzer on the working
corpus DIR/corpus (created from the target's checked-in corpus/<name>
directory, and kept between campaigns); crash, timeout and out-of-memory
reproducers go to DIR/artifacts. DIR defaults to .fuzz/<name> in the
workspace. `--engine=replay` builds with -c opt (g++, no sanitizers) and runs
the replay driver's mutations of the checked-in corpus for the time given,
deterministic for --seed (default: from the clock, so campaigns differ):
fewer checks per input, more inputs per second.

Prints the executions, executions per second, new corpus entries and the
reproducers found, and exits 1 when the campaign found a crash.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time


def run(cmd, **kwargs):
    return subprocess.run(cmd, check=True, text=True, **kwargs)


def fuzz_targets():
    """{name: (label, {tag: value})} for every rule tagged fuzz_target."""
    out = run(["bazel", "query", "--noshow_progress", 'attr(tags, "\\bfuzz_target\\b", //...)',
               "--output=build"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    targets = {}
    for block in out.split("\n\n"):
        name = re.search(r'^\s*name = "([^"]+)"', block, re.M)
        location = re.search(r"^# (\S+)/BUILD:\d+:\d+", block, re.M)
        tags = re.search(r"tags = \[([^\]]*)\]", block)
        if not (name and location and tags):
            continue
        package = os.path.relpath(location.group(1), os.getcwd())
        values = {}
        for tag in re.findall(r'"([^"]*)"', tags.group(1)):
            key, _, value = tag.partition("=")
            values[key] = value
        targets[name.group(1)] = ("//%s:%s" % (package, name.group(1)), values)
    return targets


def bazel_bin(config_flags):
    return run(["bazel", "info"] + config_flags + ["bazel-bin"], stdout=subprocess.PIPE,
               stderr=subprocess.DEVNULL).stdout.strip()


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", help="fuzz target name (e.g. sl_parser_fuzzer) or label")
    parser.add_argument("--seconds", type=int, default=600, help="campaign length (default 600)")
    parser.add_argument("--runs", type=int, default=None,
                        help="stop after this many inputs (default: no limit)")
    parser.add_argument("--engine", choices=["libfuzzer", "replay"], default="libfuzzer")
    parser.add_argument("--out", default=None, help="corpus and artifacts (default .fuzz/NAME)")
    parser.add_argument("--timeout", type=int, default=None,
                        help="seconds one input may take before it counts as a hang (default: "
                        "the target's campaign_timeout, 20 unless its BUILD says otherwise)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the campaign's random seed (default: from the clock, printed in "
                        "the command line; a replay campaign with the same seed replays the "
                        "same inputs)")
    parser.add_argument("--list", action="store_true", help="list the fuzz targets and exit")
    parser.add_argument("extra", nargs="*", help="more libFuzzer flags, after --")
    args = parser.parse_args()
    if args.seconds <= 0 or (args.runs is not None and args.runs <= 0):
        parser.error("--seconds and --runs must be positive")

    targets = fuzz_targets()
    if args.list or not args.target:
        for name in sorted(targets):
            print("%-28s %s" % (name, targets[name][0]))
        return 0 if args.list else 2
    name = args.target.rpartition(":")[2] if ":" in args.target else args.target
    if name not in targets:
        print("fuzz: unknown target %r; known: %s" % (args.target, ", ".join(sorted(targets))),
              file=sys.stderr)
        return 2
    label, tags = targets[name]
    package = label[2:].partition(":")[0]
    seeds = tags.get("fuzz_corpus", os.path.join(package, "corpus", name))
    max_len = tags.get("fuzz_max_len", "4096")
    timeout = args.timeout if args.timeout is not None else int(tags.get("fuzz_timeout", "20"))
    out = os.path.abspath(args.out or os.path.join(".fuzz", name))
    corpus = os.path.join(out, "corpus")
    artifacts = os.path.join(out, "artifacts")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)

    config = ["--config=fuzz"] if args.engine == "libfuzzer" else ["-c", "opt"]
    print("fuzz: building %s (%s)" % (label, " ".join(config)), flush=True)
    run(["bazel", "build", "--symlink_prefix=/"] + config + [label])
    binary = os.path.join(bazel_bin(config), package, name)

    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0:allocator_may_return_null=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    before = set(os.listdir(artifacts))
    corpus_before = len(os.listdir(corpus))
    if args.engine == "libfuzzer":
        cmd = [binary, "-max_total_time=%d" % args.seconds, "-max_len=%s" % max_len,
               "-timeout=%d" % timeout, "-artifact_prefix=%s/" % artifacts,
               "-print_final_stats=1"]
        if args.runs is not None:
            cmd.append("-runs=%d" % args.runs)
        if args.seed is not None:
            cmd.append("-seed=%d" % args.seed)
        cmd += args.extra + [corpus, seeds]
    else:
        seed = args.seed if args.seed is not None else int(time.time())
        cmd = [binary, "--seconds=%d" % args.seconds, "--max_len=%s" % max_len,
               "--mutations=%d" % (args.runs if args.runs is not None else 2**62),
               "--seed=%d" % seed, seeds]
        env["TEST_UNDECLARED_OUTPUTS_DIR"] = artifacts
    print("fuzz: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    start = time.time()
    log_path = os.path.join(out, "last_campaign.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
        for line in proc.stdout:
            log.write(line)
            # Not every NEW/REDUCE line: libFuzzer's periodic ones and the rest.
            if not line.startswith("#") or re.match(r"#\d+\s+(pulse|INITED|DONE)", line):
                sys.stdout.write(line)
        status = proc.wait()
    elapsed = time.time() - start
    text = open(log_path, errors="replace").read()
    executions = re.findall(r"stat::number_of_executed_units: (\d+)", text)
    replayed = re.search(r"replay: \d+ files and (\d+) mutations", text)
    runs = int(executions[-1]) if executions else (int(replayed.group(1)) if replayed else None)
    found = sorted(set(os.listdir(artifacts)) - before)
    print("\nfuzz: %s: %s executions in %.0f s (%s/s), corpus %d -> %d files, exit status %d"
          % (name, runs if runs is not None else "?", elapsed,
             "%.1f" % (runs / elapsed) if runs else "?", corpus_before, len(os.listdir(corpus)),
             status))
    print("fuzz: log in %s" % log_path)
    for artifact in found:
        path = os.path.join(artifacts, artifact)
        print("fuzz: reproducer %s" % path)
        print("      replay it: bazel run //%s:%s -- %s   (or bazel test //%s:%s_test after "
              "copying it into %s/)" % (package, name, path, package, name, seeds))
    if status != 0 and not found:
        print("fuzz: the fuzzer failed without a reproducer; see the log", file=sys.stderr)
    return 1 if status != 0 or found else 0


if __name__ == "__main__":
    sys.exit(main())
