"""Compiler options some targets add to the build's (.bazelrc)."""

# Bytecode dispatch loops keep one indirect jump per handler: GCC's
# cross-jumping otherwise merges handlers' equal tails, and with them their
# jumps, so the branch predictor sees one jump for several instructions
# (SL's switch: 56 indirect jumps instead of 21; the bytecode interpreter's
# `loop`, farm-bench against the same code with cross-jumping: 0.87 of the
# time). clang has no such flag.
NO_CROSSJUMPING = select({
    "//:clang": [],
    "//conditions:default": ["-fno-crossjumping"],
})
