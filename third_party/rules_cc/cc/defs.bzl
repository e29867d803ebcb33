"""Offline stand-in for @rules_cc: re-exports Bazel's native C++ rules.

rules_cc 0.0.4 from Debian does not load with Bazel 4.2.3, and the real one
cannot be fetched offline; Bazel 4's native rules are what rules_cc wraps.
"""

cc_library = native.cc_library
cc_binary = native.cc_binary
cc_test = native.cc_test
cc_import = native.cc_import
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
cc_proto_library = native.cc_proto_library
