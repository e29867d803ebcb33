"""backend_plugin: a shared object that --engine.BackendPlugin loads.

Executables link Abseil and protobuf statically (//third_party:absl.BUILD,
protobuf.BUILD), from Debian archives compiled as position-independent
executable code, which a shared object cannot contain. A plugin therefore
names Debian's shared Abseil and protobuf ahead of everything else on its link
line: they define the symbols first, so the linker takes nothing from the
static archives that its dependencies name. At run time the plugin binds those
symbols to the host executable's copies, which the host exports
(//engine/codegen:backend_registry links with -rdynamic): one Abseil and one
protobuf per process, as Abseil's hash seeds and protobuf's descriptor pool
require.
"""

# Every Abseil component the engine's libraries name (absl.BUILD), and
# protobuf, as shared objects.
_SHARED_LIBS = [
    "-Wl,--push-state,-Bdynamic,--no-as-needed",
    "-labsl_bad_optional_access",
    "-labsl_bad_variant_access",
    "-labsl_base",
    "-labsl_city",
    "-labsl_civil_time",
    "-labsl_cord",
    "-labsl_cord_internal",
    "-labsl_cordz_functions",
    "-labsl_cordz_handle",
    "-labsl_cordz_info",
    "-labsl_debugging_internal",
    "-labsl_demangle_internal",
    "-labsl_examine_stack",
    "-labsl_exponential_biased",
    "-labsl_failure_signal_handler",
    "-labsl_graphcycles_internal",
    "-labsl_hash",
    "-labsl_hashtablez_sampler",
    "-labsl_int128",
    "-labsl_log_severity",
    "-labsl_low_level_hash",
    "-labsl_malloc_internal",
    "-labsl_raw_hash_set",
    "-labsl_raw_logging_internal",
    "-labsl_spinlock_wait",
    "-labsl_stacktrace",
    "-labsl_status",
    "-labsl_statusor",
    "-labsl_str_format_internal",
    "-labsl_strerror",
    "-labsl_strings",
    "-labsl_strings_internal",
    "-labsl_symbolize",
    "-labsl_synchronization",
    "-labsl_throw_delegate",
    "-labsl_time",
    "-labsl_time_zone",
    "-lprotobuf",
    "-Wl,--pop-state",
]

def backend_plugin(name, srcs, deps, **kwargs):
    """A backend plugin shared object (engine/codegen/backend_plugin_api.h).

    Args:
      name: the shared object's file name, lib<something>.so.
      srcs: its sources, one of which defines MorelRegisterBackend.
      deps: the backend's libraries.
      **kwargs: passed to cc_binary (testonly, visibility, ...).
    """
    native.cc_binary(
        name = name,
        srcs = srcs,
        linkshared = True,
        linkopts = _SHARED_LIBS,
        deps = deps,
        **kwargs
    )
