"""layering_check: DESIGN §2's dependency direction as build-time queries.

Each check evaluates, when //tools/layering is built, the transitive
dependencies of some targets (genquery, so the BUILD files of record are
what is checked) and keeps the offending edges: `<name>_from` lists the
targets in the closure that depend directly on a forbidden target,
`<name>_to` the forbidden targets they depend on. Both are empty when the
rule holds; layering_test.sh fails naming them otherwise.
"""

def layering_check(name, targets, allowed_packages = None, forbidden_regex = None):
    """Declares `<name>_from` and `<name>_to` (genquery).

    Args:
      name: the rule's name, also used in the test's report.
      targets: the labels whose dependencies are checked (their closure,
        implicit dependencies left out; external repositories are always
        allowed).
      allowed_packages: the only Morel packages the closure may contain
        (exact packages, e.g. "nodes", "engine/ir"; the root package's
        package_groups are always allowed), or
      forbidden_regex: a regular expression over labels that no target in the
        closure may match.
    """
    if (allowed_packages == None) == (forbidden_regex == None):
        fail("layering_check %s: give exactly one of allowed_packages, forbidden_regex" % name)
    closure = "deps(%s)" % " + ".join(targets)
    if allowed_packages != None:
        # The root package holds no code, only the package_groups that
        # visibility refers to (they are in every closure that reaches a
        # target with such visibility).
        allowed = "'^//((%s):|:)'" % "|".join(allowed_packages + ["external"])
        bad = "filter('^//', $c) - filter(%s, $c)" % allowed
    else:
        bad = "filter('%s', $c)" % forbidden_regex
    prefix = "let c = %s in let bad = %s in " % (closure, bad)
    native.genquery(
        name = name + "_from",
        expression = prefix + "rdeps($c, $bad, 1) - $bad",
        scope = targets,
        opts = ["--noimplicit_deps"],
        testonly = True,
    )
    native.genquery(
        name = name + "_to",
        expression = prefix + "deps(rdeps($c, $bad, 1) - $bad, 1) intersect $bad",
        scope = targets,
        opts = ["--noimplicit_deps"],
        testonly = True,
    )
