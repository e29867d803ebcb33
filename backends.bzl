"""Which backend a binary links, by the CPU it is built for.

A launcher, an embedder or a test that runs compiled code links the backend
of the CPU it runs on (the host backend, DESIGN §1) through
`//:host_backend_registration`, an alwayslink library that registers it at
start-up. HOST_BACKEND_REGISTRATION says which library that is per target
CPU; None means no backend yet for that CPU: binaries link none and the
engine runs everything in the interpreter (and the IR-interpreter tier).

    load("//:backends.bzl", "REQUIRES_HOST_BACKEND", "X86_64_ONLY")

    cc_test(
        name = "tiers_test",
        deps = ["//:host_backend_registration", ...],
        target_compatible_with = REQUIRES_HOST_BACKEND,
    )

--config=a64 (.bazelrc) builds for AArch64; elsewhere the target is the
x86_64 host.
"""

HOST_BACKEND_REGISTRATION = {
    "x86_64": "//backend_x86_64:registration",
    "aarch64": "//backend_aarch64:registration",
}

# target_compatible_with of tests that need machine code from the target
# CPU's own backend (compiled tiers, OSR, native invalidation): skipped on a
# CPU that has none, reported as SKIPPED by `bazel test`.
REQUIRES_HOST_BACKEND = select({
    "//:aarch64": [] if HOST_BACKEND_REGISTRATION["aarch64"] else ["@platforms//:incompatible"],
    "//conditions:default": [],
})

# The emulators a test binary links to run code of backends whose CPU is
# not the target's (engine/codegen/testing/ir_harness.h, CodeRunner): on
# x86_64 the AArch64 backend's code runs under Unicorn; an AArch64 build
# runs its own code natively and has no emulator for x86_64's.
EMULATED_BACKEND_RUNNERS = select({
    "//:aarch64": [],
    "//conditions:default": ["//backend_aarch64/testing:unicorn_runner"],
})

# target_compatible_with of tests that need x86_64 itself: x86_64 machine
# code or disassembly, --engine.Backend=x86_64, the x86_64 plugin .so,
# FileCheck and other host tools run on the build's outputs.
X86_64_ONLY = ["@platforms//cpu:x86_64"]
