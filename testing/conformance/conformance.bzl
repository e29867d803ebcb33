"""conformance_test: runs a directory of golden programs through a launcher.

    load("//testing/conformance:conformance.bzl", "conformance_test")

    conformance_test(
        name = "sl_conformance_test",
        launcher = "//languages/sl:sl",
        tests = "//languages/sl/tests:golden",
    )

Every file of `tests` must be in one directory (a filegroup or a glob of
`<name>.<extension>`, `.output`, `.input`, `.exit` files). The test runs
`conformance_runner --launcher=<launcher> --tests=<that directory>` inside the
test's runfiles; `bazel test <target> --test_filter=Foo` runs only the programs
whose name contains `Foo`.

A target whose `launcher_args` select a compiled mode says `compiled = True`:
every run must then prove from the engine's compilation statistics that it
compiled what it should (README.md, "Compiled modes"); a program allowed to
fail compilation in that mode is named in `allow_compilation_failure`.
"""

_RUNNER = "//testing/conformance:conformance_runner"
_EMULATOR = "//testing/conformance:emulator.sh"
_WRAPPER = "//testing/conformance:conformance_test.sh"

def conformance_test(
        name,
        launcher,
        tests,
        launcher_args = [],
        extension = "sl",
        timeout_seconds = None,
        filter = None,
        compiled = False,
        allow_compilation_failure = [],
        data = [],
        **kwargs):
    """Defines an sh_test that checks every program of `tests` with `launcher`.

    Args:
      name: the test's name.
      launcher: an executable target; it is run as `launcher [launcher_args...] file`.
      tests: a label (filegroup) or list of files: the programs and their
        `.output`, `.input`, `.exit` files, all in one directory.
      launcher_args: arguments put before the program file (each one a single
        word; `$(rootpath ...)` is expanded; list the targets in `data`).
      extension: the programs' file extension, without the dot.
      timeout_seconds: per-program timeout (the runner's default is 60 s).
      filter: only run programs whose name contains this string.
      compiled: the launcher args select a compiled mode: check each run's
        compilation statistics (the mode is named after the target).
      allow_compilation_failure: programs (names without extension) allowed
        to have permanent compiler failures in this mode; each entry needs a
        comment saying why. Only with `compiled`.
      data: more runtime files for the launcher.
      **kwargs: passed to sh_test (size, tags, timeout, ...).
    """
    test_files = tests if type(tests) == "list" else [tests]
    args = [
        "$(rootpath %s)" % _RUNNER,
        "$(rootpath %s)" % launcher,
        "--extension=" + extension,
    ]
    args += ["--launcher_arg=" + arg for arg in launcher_args]
    if timeout_seconds != None:
        args.append("--timeout_seconds=%d" % timeout_seconds)
    if filter != None:
        args.append("--filter=" + filter)
    if allow_compilation_failure and not compiled:
        fail("conformance_test: allow_compilation_failure needs compiled = True")
    if compiled:
        args.append("--compiled_mode=" + name)
        args += ["--allow_compilation_failure=" + p for p in allow_compilation_failure]
    args.append("--")
    args += ["$(rootpaths %s)" % t for t in test_files]
    native.sh_test(
        name = name,
        srcs = [_WRAPPER],
        args = args,
        data = [_RUNNER, _EMULATOR, launcher] + test_files + data,
        **kwargs
    )
