#include "languages/sl/builtins.h"

#include <chrono>
#include <climits>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_object.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/runtime/values.h"
#include "languages/sl/sl_context.h"
#include "nodes/frame.h"
#include "nodes/frame_walk.h"
#include "nodes/root_node.h"

namespace morel::sl {
namespace {

using Args = absl::Span<const Value>;

[[noreturn]] void TypeError(absl::string_view builtin, Args args) {
  std::string message =
      absl::StrCat("Type error: operation \"", builtin, "\" not defined for ");
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) absl::StrAppend(&message, ", ");
    absl::StrAppend(&message, TypeErrorValue(args[i]));
  }
  throw SLError(message);
}

// Loads SL code from a builtin: a parse error becomes a guest error.
SLFunction* LoadOrThrow(SLContext& context, Value code, absl::string_view name) {
  absl::StatusOr<SLFunction*> main = context.Load(StringView(code), name);
  if (!main.ok()) throw SLError(std::string(main.status().message()));
  return *main;
}

Value Println(SLContext& context, Args args) {
  context.Print(absl::StrCat(DisplayString(args[0]), "\n"));
  return args[0];
}

Value Readln(SLContext& context, Args) {
  std::string line;
  context.ReadLine(&line);  // at end of input: ""
  return StringValue(line);
}

Value NanoTime(SLContext&, Args) {
  auto now = std::chrono::steady_clock::now().time_since_epoch();
  return Value::Long(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}

Value DefineFunction(SLContext& context, Args args) {
  if (!IsString(args[0])) TypeError("defineFunction", args);
  LoadOrThrow(context, args[0], "[defineFunction]");
  return args[0];
}

// Frames of the guest functions that called this builtin, innermost first,
// up to the first internal frame (sl_spec §9). Compiled activations are
// materialized with their current locals (nodes/frame_walk.h).
Value Stacktrace(SLContext&, Args) {
  std::vector<std::string> lines;
  const Frame* builtin_frame = Frame::Current();
  bool own_frame = true;  // the walk starts with this builtin's frame
  WalkFrames(builtin_frame, [&](const FrameInstance& frame) {
    if (own_frame && builtin_frame != nullptr) {
      own_frame = false;
      return true;
    }
    if (frame.root->IsInternal()) return false;
    std::string line = absl::StrCat("Frame: root ", frame.root->name());
    const FrameDescriptor& descriptor = *frame.descriptor;
    for (int slot = 0; slot < descriptor.size(); ++slot) {
      if (!frame.IsInitialized(slot)) continue;
      absl::StrAppend(&line, ", ", descriptor.name(slot), "=", HostString(frame.slots[slot]));
    }
    lines.push_back(std::move(line));
    return true;
  });
  return StringValue(absl::StrJoin(lines, "\n"));
}

Value HelloEqualsWorld(SLContext&, Args) {
  Value world = StringValue("world");
  Frame* builtin_frame = Frame::Current();
  Frame* caller = builtin_frame != nullptr ? builtin_frame->caller() : nullptr;
  if (caller != nullptr) {
    const FrameDescriptor& descriptor = caller->descriptor();
    for (int slot = 0; slot < descriptor.size(); ++slot) {
      if (descriptor.name(slot) == "hello") {
        descriptor.RecordWrite(slot, world);
        caller->Set(slot, world);
        break;
      }
    }
  }
  return world;
}

Value New(SLContext&, Args args) {
  if (!IsNull(args[0])) ThrowUndefinedFunction(args[0]);
  return Value::Reference(kObjectTag, NewObject());
}

Value Eval(SLContext& context, Args args) {
  if (!IsString(args[0]) || !IsString(args[1])) TypeError("eval", args);
  if (StringView(args[0]) != "sl") {
    throw SLError(absl::StrCat("eval: language '", StringView(args[0]),
                               "' is not available (only \"sl\")"));
  }
  SLFunction* main = LoadOrThrow(context, args[1], "(eval)");
  if (main == nullptr) return NullValue();
  return context.Call(main, {});
}

Value TypeOfValue(const Value& v) {
  if (IsNull(v)) return TypeValue(SLTypeKind::kNull);
  if (IsNumber(v)) return TypeValue(SLTypeKind::kNumber);
  if (IsString(v)) return TypeValue(SLTypeKind::kString);
  if (v.IsBoolean()) return TypeValue(SLTypeKind::kBoolean);
  if (IsFunction(v)) return TypeValue(SLTypeKind::kFunction);
  if (IsObject(v)) return TypeValue(SLTypeKind::kObject);
  return NullValue();  // a meta-object has no type
}

Value TypeOf(SLContext&, Args args) { return TypeOfValue(args[0]); }

Value IsInstance(SLContext&, Args args) {
  if (!IsType(args[0])) TypeError("isInstance", args);
  Value type = TypeOfValue(args[1]);
  return Value::Boolean(IsType(type) && type.bits == args[0].bits);
}

Value IsExecutable(SLContext&, Args args) { return Value::Boolean(IsFunction(args[0])); }
Value IsNullBuiltin(SLContext&, Args args) { return Value::Boolean(IsNull(args[0])); }
Value HasSize(SLContext&, Args) { return Value::Boolean(false); }
Value GetSize(SLContext&, Args) { throw SLError("Element is not a valid array."); }

Value Import(SLContext&, Args args) {
  if (!IsString(args[0])) TypeError("import", args);
  return NullValue();  // no polyglot bindings in Morel
}

Value WrapPrimitive(SLContext&, Args args) { return args[0]; }

Value Exit(SLContext&, Args args) {
  if (!args[0].IsLong()) TypeError("exit", args);
  throw SLExit(static_cast<int>(static_cast<uint32_t>(args[0].AsLong())));
}

Value RegisterShutdownHook(SLContext& context, Args args) {
  if (!IsFunction(args[0])) TypeError("registerShutdownHook", args);
  context.AddShutdownHook(args[0].As<SLFunction>());
  return NullValue();
}

Value InNativeImage(SLContext&, Args) { return Value::Boolean(true); }

Value Java(SLContext&, Args args) {
  if (!IsString(args[0])) {
    throw SLError(
        "The java builtin expected a String argument, but a non-string argument "
        "was provided.");
  }
  throw SLError("java: host (JVM) interop is not supported by Morel");
}

Value AddToHostClassPath(SLContext&, Args args) {
  if (!IsString(args[0])) TypeError("addToHostClassPath", args);
  throw SLError("addToHostClassPath: host (JVM) interop is not supported by Morel");
}

}  // namespace

const std::vector<BuiltinSpec>& Builtins() {
  static const std::vector<BuiltinSpec>* builtins = new std::vector<BuiltinSpec>{
      {"println", 1, Println},
      {"readln", 0, Readln},
      {"nanoTime", 0, NanoTime},
      {"defineFunction", 1, DefineFunction, /*inspects_caller_frame=*/false,
       /*writes_caller_frame=*/false, /*may_run_guest_code=*/true},
      {"stacktrace", 0, Stacktrace, /*inspects_caller_frame=*/true},
      {"helloEqualsWorld", 0, HelloEqualsWorld, /*inspects_caller_frame=*/true,
       /*writes_caller_frame=*/true},
      {"new", 1, New, /*inspects_caller_frame=*/false, /*writes_caller_frame=*/false,
       /*may_run_guest_code=*/false, /*calls_guest_functions=*/false,
       DirectlyCallableBuiltin::Intrinsic::kNewObject},
      {"eval", 2, Eval, /*inspects_caller_frame=*/false,
       /*writes_caller_frame=*/false, /*may_run_guest_code=*/true,
       /*calls_guest_functions=*/true},
      {"typeOf", 1, TypeOf},
      {"isInstance", 2, IsInstance},
      {"isExecutable", 1, IsExecutable},
      {"isNull", 1, IsNullBuiltin, /*inspects_caller_frame=*/false, /*writes_caller_frame=*/false,
       /*may_run_guest_code=*/false, /*calls_guest_functions=*/false,
       DirectlyCallableBuiltin::Intrinsic::kIsNull},
      {"hasSize", 1, HasSize},
      {"getSize", 1, GetSize},
      {"import", 1, Import},
      {"wrapPrimitive", 1, WrapPrimitive},
      {"exit", 1, Exit, /*inspects_caller_frame=*/false,
       /*writes_caller_frame=*/false, /*may_run_guest_code=*/true,
       /*calls_guest_functions=*/true},
      {"registerShutdownHook", 1, RegisterShutdownHook},
      {"inNativeImage", 0, InNativeImage},
      {"java", 1, Java},
      {"addToHostClassPath", 1, AddToHostClassPath},
  };
  return *builtins;
}

}  // namespace morel::sl
