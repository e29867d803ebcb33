"""differential_test: every program under the interpreter and under each mode.

    load("//testing/differential:differential.bzl", "MOREL_MODES", "differential_test")

    differential_test(
        name = "sl_golden_differential_test",
        launcher = "//languages/sl:sl",
        programs = "//languages/sl/tests:golden",
        modes = MOREL_MODES,
    )

Runs `differential_runner` (see README.md) inside the test's runfiles: each
program of `programs` (the `*.<extension>` files; `.input`, `.output` and
`.exit` files beside them are used too, other files are ignored) runs under
the baseline (the interpreter) and under every mode; stdout, stderr and the
exit status must match the baseline's byte for byte. `bazel test <target>
--test_filter=Foo` runs only the programs whose name contains `Foo`;
`shard_count` splits the programs between shards.

Every mode is a compiled mode: each run must also prove, from the engine's
compilation statistics, that it compiled what it should (README.md,
"Compiled modes"); `allow_compilation_failure` names the "Program:mode"
pairs allowed to have compiler failures.
"""

_RUNNER = "//testing/differential:differential_runner"
_EMULATOR = "//testing/conformance:emulator.sh"
_WRAPPER = "//testing/differential:differential_test.sh"

# The baseline: the interpreter, nothing compiled.
INTERPRETER_BASELINE = {"interpreter": ["--engine.Compilation=false"]}

# The execution modes every Morel language is checked in (issue #6), on the
# host backend (x86_64 here). Each is a dict entry: mode name -> launcher
# flags (one word each).
MOREL_MODES = {
    # Every call target compiled before its first call, on the calling
    # thread: compiled code runs from the start.
    "compile_immediately": [
        "--engine.CompileImmediately",
        "--engine.BackgroundCompilation=false",
    ],
    # The launcher as users run it: default thresholds and options.
    "default_thresholds": [],
    # Compilation after a few calls, profiles gathered in the interpreter
    # first, compiled on background threads while the interpreter runs on:
    # the first tier after 3 calls (and loop iterations), the last tier
    # requested by first-tier code after 20, while it runs on.
    "tiny_thresholds_background": [
        "--engine.FirstTierCompilationThreshold=3",
        "--engine.LastTierCompilationThreshold=20",
        "--engine.BackgroundCompilation=true",
    ],
    # Every third guard of compiled code fails: execution keeps
    # deoptimizing, resuming mid-expression and recompiling (up to
    # MaximumCompilations, default 100, per call target).
    "deopt_stress": [
        "--engine.CompileImmediately",
        "--engine.BackgroundCompilation=false",
        "--engine.DeoptEveryN=3",
    ],
    # Inlining with tiny budgets: exploration and inlining stop after a
    # few IR nodes, so most calls stay calls next to a few inlined ones.
    "tiny_inlining_budgets": [
        "--engine.CompileImmediately",
        "--engine.BackgroundCompilation=false",
        "--engine.InliningExpansionBudget=60",
        "--engine.InliningInliningBudget=60",
    ],
    # Inlining without budgets and recursive callees inlined four deep,
    # under deopt stress: deoptimization through many inlined frames.
    "unbounded_inlining_deopt_stress": [
        "--engine.CompileImmediately",
        "--engine.BackgroundCompilation=false",
        "--engine.InliningExpansionBudget=1000000",
        "--engine.InliningInliningBudget=1000000",
        "--engine.InliningRecursionDepth=4",
        "--engine.DeoptEveryN=5",
    ],
    # Every direct call node splits its callee at its first call (as if the
    # language called CloneCallTarget() everywhere), and the split copies
    # are compiled after a few calls: code runs in fresh uninitialized
    # copies, and splits invalidate compiled callers. One tier.
    "forced_splitting": [
        "--engine.SplittingForceAll",
        "--engine.MultiTier=false",
        "--engine.SingleTierCompilationThreshold=3",
        "--engine.MinInvokeThreshold=1",
        "--engine.BackgroundCompilation=false",
    ],
}

def _shell_word(word):
    # sh_test args go through Bourne-shell tokenization: quote each word so
    # that spaces and backslashes survive ($(rootpath ...) still expands).
    return "'%s'" % word.replace("'", "'\\''")

def _absolute_label(label):
    if label.startswith("//") or label.startswith("@"):
        return label
    if label.startswith(":"):
        return "//%s%s" % (native.package_name(), label)
    return "//%s:%s" % (native.package_name(), label)

def differential_test(
        name,
        launcher,
        programs,
        modes = MOREL_MODES,
        baseline = INTERPRETER_BASELINE,
        launcher_args = [],
        extension = "sl",
        exclusions = [],
        allow_compilation_failure = [],
        masks = [],
        jobs = 2,
        timeout_seconds = None,
        data = [],
        **kwargs):
    """Defines an sh_test comparing every mode of `launcher` with the baseline.

    Args:
      name: the test's name.
      launcher: an executable target, run as
        `launcher [launcher_args...] [mode flags...] program`.
      programs: labels (filegroups or files): the programs and their
        companion files.
      modes: dict, mode name -> list of launcher flags (each one word).
      baseline: dict with one entry, name -> flags: what every mode is
        compared with.
      launcher_args: flags for every run, baseline included.
      extension: the programs' file extension, without the dot.
      exclusions: "Program:mode" pairs whose difference does not fail the
        test (the pair still runs and its diff is printed). Every entry must
        carry a comment naming the bug.
      allow_compilation_failure: "Program:mode" pairs allowed to have
        permanent compiler failures ("opt failed"); each entry must carry a
        comment saying why the program cannot compile in that mode.
      masks: regular expressions (ECMAScript) for output that legitimately
        varies between runs, such as elapsed times; in each output line every
        match, or its first capture group if it has one, is replaced by
        `<masked>` before comparing. Never for hiding a real difference.
      jobs: launcher processes run at once; the test is tagged `cpu:<jobs>`
        so Bazel reserves that many cores for it.
      timeout_seconds: per-run timeout (the runner's default is 120 s).
      data: more runtime files for the launcher.
      **kwargs: passed to sh_test (size, shard_count, tags, timeout, ...).
    """
    program_labels = programs if type(programs) == "list" else [programs]
    if len(baseline) != 1:
        fail("differential_test: baseline must have exactly one entry")
    args = [
        "$(rootpath %s)" % _RUNNER,
        "$(rootpath %s)" % launcher,
        "--extension=" + extension,
        "--jobs=%d" % jobs,
        "--launcher_label=" + _absolute_label(launcher),
    ]
    args += [_shell_word("--launcher_arg=" + arg) for arg in launcher_args]
    for baseline_name, flags in baseline.items():
        args.append("--baseline=" + baseline_name)
        args += [_shell_word("--baseline=%s:%s" % (baseline_name, flag)) for flag in flags]
    for mode, flags in modes.items():
        args.append("--mode=" + mode)
        args += [_shell_word("--mode=%s:%s" % (mode, flag)) for flag in flags]
    args += ["--exclude=" + exclusion for exclusion in exclusions]
    args += ["--allow_compilation_failure=" + pair for pair in allow_compilation_failure]
    args += [_shell_word("--mask=" + mask.replace("$", "$$")) for mask in masks]
    if timeout_seconds != None:
        args.append("--timeout_seconds=%d" % timeout_seconds)
    args.append("--")
    args += ["$(rootpaths %s)" % label for label in program_labels]
    tags = kwargs.pop("tags", [])
    if jobs > 1:
        tags = tags + ["cpu:%d" % jobs]
    native.sh_test(
        name = name,
        srcs = [_WRAPPER],
        args = args,
        data = [_RUNNER, _EMULATOR, launcher] + program_labels + data,
        tags = tags,
        **kwargs
    )
