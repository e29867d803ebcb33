"""morel_fuzz_target: a libFuzzer target that is also a normal test.

    morel_fuzz_target(
        name = "ir_parser_fuzzer",
        srcs = ["ir_parser_fuzzer.cc"],     # defines LLVMFuzzerTestOneInput
        deps = [...],
        max_len = 4096,
        replay_mutations = 2000,
    )

defines
  - `<name>_lib`: the target's code (alwayslink, so the entry point is kept);
  - `<name>` (tagged manual): the fuzzer. Under --config=fuzz it links
    libFuzzer's main (-fsanitize=fuzzer); otherwise the replay driver.
    Campaigns build and run it: bazel run //tools/fuzz -- --target=<name>;
  - `<name>_test`: the replay driver (replay_main.cc) over the checked-in
    corpus `corpus/<name>/` of the package plus `replay_mutations`
    deterministic mutations of it, inputs cut at `max_len` bytes. It runs in
    `bazel test //...` and must take a few seconds at most.

`campaign_timeout` is libFuzzer's -timeout in campaigns: seconds one input
may take before it is kept as a hang. The tags `fuzz_target`,
`fuzz_max_len=N`, `fuzz_timeout=N` and `fuzz_corpus=<dir>` on the fuzzer
are what //tools/fuzz reads.
"""

def morel_fuzz_target(
        name,
        srcs,
        deps = [],
        max_len = 4096,
        replay_mutations = 1000,
        campaign_timeout = 20,
        data = [],
        size = "small",
        tags = [],
        **kwargs):
    corpus = native.package_name() + "/corpus/" + name
    native.cc_library(
        name = name + "_lib",
        testonly = True,
        srcs = srcs,
        deps = deps + ["//testing/fuzz:fuzz_target"],
        alwayslink = True,
        **kwargs
    )
    native.cc_binary(
        name = name,
        testonly = True,
        deps = [":" + name + "_lib"] + select({
            "//testing/fuzz:libfuzzer": [],
            "//conditions:default": ["//testing/fuzz:replay_main"],
        }),
        linkopts = select({
            "//testing/fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        data = data,
        tags = [
            "manual",
            "fuzz_target",
            "fuzz_max_len=%d" % max_len,
            "fuzz_timeout=%d" % campaign_timeout,
            "fuzz_corpus=" + corpus,
        ],
    )
    native.cc_test(
        name = name + "_test",
        size = size,
        deps = [
            ":" + name + "_lib",
            "//testing/fuzz:replay_main",
        ],
        args = [
            "--mutations=%d" % replay_mutations,
            "--max_len=%d" % max_len,
            corpus,
        ],
        data = data + native.glob(["corpus/" + name + "/**"]),
        tags = tags,
    )
