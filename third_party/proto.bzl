"""cc_proto: C++ protobuf code from .proto files with the system protoc.

Bazel 4 cannot fetch the protobuf rule repository offline, so this macro runs
Debian's /usr/bin/protoc in a genrule and wraps the generated .pb.h/.pb.cc in a
cc_library. The generated header of engine/config/foo.proto is included as
"engine/config/foo.pb.h".

Args:
  name: the cc_library (and prefix of helper targets).
  srcs: .proto files of this package.
  deps: other cc_proto targets whose .proto files these import.
"""

def cc_proto(name, srcs, deps = [], visibility = None, testonly = False):
    pkg = native.package_name()
    paths = [(pkg + "/" + s) if pkg else s for s in srcs]
    hdrs = [s[:-len(".proto")] + ".pb.h" for s in srcs]
    ccs = [s[:-len(".proto")] + ".pb.cc" for s in srcs]

    native.filegroup(
        name = name + "_proto_srcs",
        srcs = srcs + [d + "_proto_srcs" for d in deps],
        visibility = visibility,
        testonly = testonly,
    )
    native.genrule(
        name = name + "_protoc",
        srcs = [name + "_proto_srcs"],
        outs = hdrs + ccs,
        cmd = "/usr/bin/protoc -I. -I/usr/include --cpp_out=$(GENDIR) " +
              " ".join(paths),
        testonly = testonly,
    )
    native.cc_library(
        name = name,
        srcs = ccs,
        hdrs = hdrs,
        deps = deps + ["@protobuf"],
        visibility = visibility,
        testonly = testonly,
    )
