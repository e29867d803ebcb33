"""A C++ toolchain configuration for Debian's AArch64 cross compiler.

Debian 12's g++-aarch64-linux-gnu (GCC 12, the host's version) compiles and
links for arm64 against the multiarch arm64 libraries in
/usr/lib/aarch64-linux-gnu and the shared headers in /usr/include (installed
by `bash tools/setup.sh --aarch64`). The flags are those Bazel's
auto-configured host toolchain (@local_config_cc) uses with g++ 12, so
--config=a64 builds what the host build builds, for another CPU; .bazelrc
adds the project's own flags (C++20, warnings) to both.

Everything not declared here (include paths, defines, copts, linkopts,
libraries to link, PIC, parameter files, ...) comes from Bazel's legacy
features, as for the auto-configured toolchain.
"""

load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)
load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

_PREFIX = "/usr/bin/aarch64-linux-gnu-"

def _flags(actions, flags, mode = None):
    """A flag set for `actions`; only in compilation mode `mode` if given."""
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = [mode])] if mode else [],
    )

def _impl(ctx):
    # The gcc driver, as on the host: it compiles .cc as C++ and links with
    # the -lstdc++ below.
    tools = {
        "gcc": "gcc-12",
        "cpp": "cpp-12",
        "ar": "ar",
        "ld": "ld",
        "nm": "nm",
        "objcopy": "objcopy",
        "objdump": "objdump",
        "strip": "strip",
        "dwp": "dwp",
        "gcov": "gcov-12",
    }
    tool_paths = [tool_path(name = n, path = _PREFIX + t) for n, t in tools.items()]
    tool_paths.append(tool_path(name = "llvm-cov", path = "/bin/false"))

    features = [
        feature(name = "supports_pic", enabled = True),
        feature(name = "supports_dynamic_linker", enabled = True),
        feature(name = "dbg"),
        feature(name = "opt"),
        feature(name = "fastbuild"),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, [
                    "-U_FORTIFY_SOURCE",
                    "-fstack-protector",
                    "-Wall",
                    "-Wunused-but-set-parameter",
                    "-Wno-free-nonheap-object",
                    "-fno-omit-frame-pointer",
                ]),
                _flags(_COMPILE_ACTIONS, ["-g"], "dbg"),
                _flags(_COMPILE_ACTIONS, [
                    "-g0",
                    "-O2",
                    "-D_FORTIFY_SOURCE=1",
                    "-DNDEBUG",
                    "-ffunction-sections",
                    "-fdata-sections",
                ], "opt"),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                # Not the host's -Wl,-no-as-needed: Bazel puts a toolchain's
                # features after its own legacy ones, so here it would come
                # after the libraries and do nothing. Debian's GCC links
                # with --as-needed, which drops the shared objects of a
                # fastbuild test's libraries; --config=a64 links tests
                # statically instead (--dynamic_mode=off in .bazelrc).
                _flags(_LINK_ACTIONS, [
                    "-Wl,-z,relro,-z,now",
                    "-pass-exit-codes",
                    "-lstdc++",
                    "-lm",
                ]),
                _flags(_LINK_ACTIONS, ["-Wl,--gc-sections"], "opt"),
            ],
        ),
        # Reproducible output, and header paths as written (Bazel checks
        # every included header against the declared or built-in ones).
        feature(
            name = "unfiltered_compile_flags",
            enabled = True,
            flag_sets = [_flags(_COMPILE_ACTIONS, [
                "-fno-canonical-system-headers",
                "-Wno-builtin-macro-redefined",
                "-D__DATE__=\"redacted\"",
                "-D__TIMESTAMP__=\"redacted\"",
                "-D__TIME__=\"redacted\"",
            ])],
        ),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "aarch64-linux-gnu-gcc-12",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "aarch64-linux-gnu",
        target_cpu = "aarch64",
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "aarch64",
        abi_libc_version = "glibc",
        features = features,
        tool_paths = tool_paths,
        # What `aarch64-linux-gnu-g++-12 -E -v` searches (the C++ headers as
        # /usr/aarch64-linux-gnu/include/c++/12 once Bazel normalizes ".."):
        # the cross compiler's own, then the arm64 multiarch headers, then
        # the headers every architecture shares (Abseil, protobuf, gtest...).
        cxx_builtin_include_directories = [
            "/usr/lib/gcc-cross/aarch64-linux-gnu/12/include",
            "/usr/aarch64-linux-gnu/include",
            "/usr/include/aarch64-linux-gnu",
            "/usr/include",
        ],
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)
