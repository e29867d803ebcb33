#include "engine/runtime/compiler.h"

#include <iostream>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/printer.h"
#include "engine/opt/pipeline_options.h"
#include "engine/opt/standard_passes.h"
#include "engine/pe/runtime_call.h"
#include "engine/runtime/compiled_frames.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/osr.h"
#include "nodes/frame.h"
#include "nodes/heap.h"
#include "nodes/pending_exception.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"

namespace morel::runtime {

absl::StatusOr<std::unique_ptr<pe::Compilation>> CompileToIr(
    Engine& engine, CallTarget& target, ir::RuntimeRegistry& runtime, int tier,
    uint64_t* rewrite_count, std::ostream* diagnostic_dump, InliningReport* inlining) {
  pe::PartialEvaluator::Options pe_options;
  pe_options.deopt_every_n = engine.config().deopt_every_n();
  engine.SetTierOptions(tier, pe_options);
  pe_options.rewriting_assumption = [&engine](CallTarget& callee) {
    return engine.RewritingAssumption(callee);
  };
  InliningReport unused_report;
  if (inlining == nullptr) inlining = &unused_report;
  absl::StatusOr<std::unique_ptr<pe::Compilation>> compilation;
  {
    // The interpreter specializes and replaces under the same lock: partial
    // evaluation (on a compiler thread) reads one consistent tree. Later
    // rewrites show in the rewrite count, which the engine checks before it
    // installs the code.
    RootNode* tree = target.root_node()->CompiledTreeRoot();
    std::lock_guard<std::recursive_mutex> guard(tree->lock());
    if (rewrite_count != nullptr) *rewrite_count = tree->rewrite_count();
    // OSR code too: its root is the loop's (osr/osr_root_node.h), whose
    // calls the inliner sees like a function's.
    compilation = PartiallyEvaluateWithInlining(target, runtime, pe_options,
                                                engine.InliningSettingsFor(tier), inlining);
  }
  if (!compilation.ok()) {
    if (diagnostic_dump != nullptr) {
      *diagnostic_dump << ";; partial evaluation failed: " << compilation.status().message()
                       << "\n";
    }
    return compilation.status();
  }
  // Validated by Engine::Create; copied only to redirect a diagnostic dump.
  const opt::PipelineOptions* options = &engine.pipeline_options();
  opt::PipelineOptions diagnostic_options;
  if (diagnostic_dump != nullptr) {
    diagnostic_options = *options;
    diagnostic_options.dump_ir = {"all"};
    diagnostic_options.verify_ir = true;
    diagnostic_options.dump_stream = diagnostic_dump;
    options = &diagnostic_options;
  }
  absl::StatusOr<std::unique_ptr<opt::Pipeline>> pipeline =
      opt::BuildDefaultPipeline(*options);
  if (!pipeline.ok()) return pipeline.status();
  if (options->ShouldDump("pe")) {
    std::ostream& dump = options->dump_stream != nullptr ? *options->dump_stream : std::cerr;
    dump << ";; IR after pe\n" << ir::PrintFunction(*(*compilation)->function);
  }
  absl::StatusOr<bool> changed = (*pipeline)->Run(*(*compilation)->function);
  if (!changed.ok()) {
    if (diagnostic_dump != nullptr) {
      *diagnostic_dump << ";; optimization failed: " << changed.status().message() << "\n";
    }
    return changed.status();
  }
  return compilation;
}

Value IrTierCode::Invoke(CallTarget& target, absl::Span<const Value> arguments) {
  // A collector root (ir::InterpreterOptions::value_table): the SSA values
  // of this activation, which may be guest objects nothing else references,
  // and the call arguments in flight; in two more words, the result of the
  // call in flight until the interpreter has stored it. It lives until the
  // activation is done, through the resume after a deoptimization, whose
  // slots are values of this table (as a deoptimizing native frame stays on
  // the stack). A plain vector here lets collections free live objects.
  const size_t table_size = ir::ValueTableSize(*compilation_->function);
  heap::TracedVector<int64_t> table(table_size + 2, 0);
  int64_t* in_flight = table.data() + table_size;
  ir::InterpreterOptions options;
  options.max_steps = INT64_MAX;
  options.safepoint_word =
      static_cast<const std::atomic<int64_t>*>(target.runtime()->safepoint_word());
  options.value_table = absl::MakeSpan(table.data(), table_size);
  // `alloc`: a traced object, referenced from the value table.
  options.allocate = [](int64_t bytes) { return heap::AllocateTraced(static_cast<size_t>(bytes)); };
  // The call's lazy frame state while the callee runs: stack walks list
  // this activation with its current locals (compiled_frames.h). Calls
  // that may run guest code carry one (call_target, and runtime calls
  // through the guest-call entry, pe::GuestRuntimeCall).
  const std::vector<ir::DeoptFrame>* lazy_frames = nullptr;
  options.lazy_frames = &lazy_frames;
  options.call_runtime = [in_flight, &lazy_frames](const ir::RuntimeFunction& function,
                                                   absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    InterpretedIrSegment segment(lazy_frames);
    pe::RuntimeInvoker invoker = pe::FindInvoker(&function);
    if (invoker == nullptr) {
      return absl::InternalError(absl::StrCat("no invoker for ", function.name));
    }
    const size_t count = function.signature.results.size();
    MOREL_CHECK_MSG(count <= 2, "a runtime call returns at most two words");
    invoker(args, in_flight);
    return std::vector<int64_t>(in_flight, in_flight + count);
  };
  options.call_target = [in_flight, &lazy_frames](int64_t id, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    InterpretedIrSegment segment(lazy_frames);
    CallTarget* callee = pe::DecodeCallTarget(id);
    // A collector root: the callee's frame reads its arguments from here.
    heap::TracedVector<Value> values;
    values.reserve(args.size() / 2);
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
      values.push_back(Value{static_cast<uint64_t>(args[i]), static_cast<ValueTag>(args[i + 1])});
    }
    Value result = CatchIntoMarker([&] { return callee->Call(values); });
    in_flight[0] = static_cast<int64_t>(result.bits);
    in_flight[1] = static_cast<int64_t>(result.tag);
    return std::vector<int64_t>(in_flight, in_flight + 2);
  };
  int64_t raw_args[2] = {reinterpret_cast<int64_t>(arguments.data()),
                         static_cast<int64_t>(arguments.size())};
  absl::StatusOr<ir::ExecutionResult> result =
      ir::Interpret(*compilation_->function, raw_args, options);
  if (!result.ok()) {
    // A broken compilation is an engine bug: trace it, then stop.
    engine_.log().Log(absl::StrCat("opt failed ", target.name(), " |IR execution: ",
                                   result.status().message()));
    MOREL_UNREACHABLE(absl::StrCat("IR execution of ", target.name(),
                                   " failed: ", result.status().message()));
  }
  if (result->kind == ir::ExecutionResult::Kind::kReturned) {
    Value value{static_cast<uint64_t>(result->values[0]),
                static_cast<ValueTag>(result->values[1])};
    if (value.tag == kPendingExceptionTag) RethrowPendingException();
    return value;
  }
  // The engine may drop this code object meanwhile; nothing of it is used
  // after the call.
  return ResumeInInterpreter(engine_, target, *compilation_, result->frames, result->objects,
                             result->reason, result->action, arguments);
}

namespace {

// The resume path of one evaluated frame state; `inner_result` fills the
// done outcome an inlined callee's activation produced.
std::vector<ResumeEntry> ResumePath(const pe::ResumeTemplate& resume, const ir::DeoptFrame& deopt,
                                    const Value* inner_result) {
  std::vector<ResumeEntry> path;
  for (const pe::ResumeTemplate::Entry& entry : resume.path) {
    ResumeEntry out{entry.node, entry.next_child, {}};
    for (const pe::ResumeTemplate::Done& done : entry.done) {
      if (done.is_value && done.stack_index == pe::ResumeTemplate::kInnerFrameResult) {
        MOREL_CHECK_MSG(inner_result != nullptr, "an inlined call's state without its callee");
        out.done.push_back(Outcome::OfValue(*inner_result));
      } else if (done.is_value) {
        out.done.push_back(Outcome::OfValue(ValueOfSlot(deopt.stack[done.stack_index])));
      } else {
        out.done.push_back(Outcome::OfStatus(done.status));
      }
    }
    path.push_back(std::move(out));
  }
  return path;
}

Value ResumeFrames(const pe::Compilation& compilation, absl::Span<const ir::DeoptFrame> frames,
                   size_t outer, absl::Span<const Value> arguments,
                   absl::FunctionRef<void()> notify_engine);

// Finishes frames[outer]'s activation on `frame` (current, its slots
// written): the inlined frames frames[0..outer - 1] first, if any, whose
// innermost notifies the engine; the callee's result becomes its result of
// the call, and nothing is evaluated twice.
Outcome ResumeOn(Frame& frame, const pe::Compilation& compilation,
                 absl::Span<const ir::DeoptFrame> frames, size_t outer,
                 absl::FunctionRef<void()> notify_engine) {
  const ir::DeoptFrame& deopt = frames[outer];
  const pe::ResumeTemplate& resume =
      compilation.resume_templates[static_cast<size_t>(deopt.resume_point)];
  if (outer == 0) {
    notify_engine();
    return ResumeActivation(frame, ResumePath(resume, deopt, nullptr));
  }
  // The callee first, with this frame current; a guest error unwinds both.
  heap::TracedVector<Value> inner(1, Value::Illegal());
  inner[0] = ResumeFrames(compilation, frames, outer - 1, {}, notify_engine);
  return ResumeActivation(frame, ResumePath(resume, deopt, &inner[0]));
}

// Rebuilds the interpreter activations of frames[0..outer] (innermost
// first: frames[outer] is the outermost of them, frames.back() the compiled
// function's own) and finishes them. frames[outer]'s Frame is pushed before
// its callee, frames[outer - 1], resumes, so stack walks from the callee see
// it as a real call (ResumeOn).
Value ResumeFrames(const pe::Compilation& compilation, absl::Span<const ir::DeoptFrame> frames,
                   size_t outer, absl::Span<const Value> arguments,
                   absl::FunctionRef<void()> notify_engine) {
  const ir::DeoptFrame& deopt = frames[outer];
  CallTarget* target = outer + 1 == frames.size()
                           ? compilation.target
                           : Engine::FindCallTargetInProcess(deopt.call_target_id);
  MOREL_CHECK_MSG(target != nullptr, "deoptimization of an unknown call target");
  RootNode* root = target->root_node();
  FrameDescriptor& descriptor = root->frame_descriptor();
  // A collector root: the resumed activation's frame slots (a plain
  // std::vector is invisible to the collector, which then frees objects
  // only these slots reference).
  heap::TracedVector<Value> locals(root->frame_storage_size(), Value::Illegal());
  for (size_t i = 0; i < deopt.locals.size() && i < locals.size(); ++i) {
    locals[i] = ValueOfSlot(deopt.locals[i]);
  }
  // Inlined frames have no argument array of their own (their parameters
  // are locals by now; the frame states hold them).
  Frame frame(&descriptor, locals.data(),
              outer + 1 == frames.size() ? arguments : absl::Span<const Value>(), root,
              Frame::Current());
  FrameScope scope(&frame);
  return ResumeOn(frame, compilation, frames, outer, notify_engine).value;
}

// ResumeInInterpreter once the frames' objects are allocated.
Value ResumeMaterialized(Engine& engine, CallTarget& target, const pe::Compilation& compilation,
                         absl::Span<const ir::DeoptFrame> frames, const std::string& reason,
                         ir::DeoptAction action, absl::Span<const Value> arguments) {
  MOREL_CHECK_MSG(!frames.empty(), "a deoptimization without frames");
  const ir::DeoptFrame& deopt = frames.front();  // innermost
  const pe::ResumeTemplate& resume =
      compilation.resume_templates[static_cast<size_t>(deopt.resume_point)];
  RootNode* root = target.root_node();
  auto notify_engine = [&] {
    if (compilation.dependencies != nullptr && !compilation.dependencies->IsValid()) {
      // Lazy invalidation: the code was invalidated (and detached) while
      // this activation ran; the target may already run newer code.
      engine.OnInvalidatedCodeDeoptimized(target, reason);
    } else {
      engine.OnDeoptimized(target, reason,
                           resume.path.empty() ? nullptr : resume.path.back().node, action,
                           &compilation);
    }
  };
  if (root->CompiledTreeRoot() != root) {
    // OSR code (engine/runtime/osr.h): the outermost activation is the
    // interpreter's own frame, which is current. Its slots take the
    // outermost frame state's locals (all of them: OSR code loaded every
    // slot), then it resumes there like a rebuilt frame (the frames
    // inlined into it first) and the interpreter finishes the loop; the
    // loop's status is the OSR code's result (bytecode OSR: it finishes the
    // function, whose result is).
    OsrActivation* activation = CurrentOsrActivation();
    MOREL_CHECK_MSG(activation != nullptr, "deoptimization of OSR code outside RunOsr");
    Frame& frame = *activation->frame;
    activation->deoptimized = true;
    const ir::DeoptFrame& outer = frames.back();
    for (size_t i = 0;
         i < outer.locals.size() && i < static_cast<size_t>(frame.descriptor().size()); ++i) {
      frame.Set(static_cast<int>(i), ValueOfSlot(outer.locals[i]));
    }
    const Outcome outcome = ResumeOn(frame, compilation, frames, frames.size() - 1, notify_engine);
    // Bytecode OSR: the function ran to its end; its result is the code's.
    return activation->runs_to_end ? outcome.value : Value::Long(outcome.status);
  }
  return ResumeFrames(compilation, frames, frames.size() - 1, arguments, notify_engine);
}

}  // namespace

Value ResumeInInterpreter(Engine& engine, CallTarget& target,
                          const pe::Compilation& compilation,
                          absl::Span<const ir::DeoptFrame> frames,
                          absl::Span<const ir::DeoptObject> objects, const std::string& reason,
                          ir::DeoptAction action, absl::Span<const Value> arguments) {
  if (objects.empty()) {
    return ResumeMaterialized(engine, target, compilation, frames, reason, action, arguments);
  }
  // A collector root for the new objects while the activation finishes:
  // allocating one may collect before the others (or the frames) refer to
  // it, and the frames below, the resume paths built from them and the
  // stack values handed to the resumed nodes are plain memory. (Their
  // other values stay reachable from the deoptimized activation: its
  // machine frame and saved registers, or the IR tier's traced table.)
  heap::TracedVector<void*> addresses(objects.size(), nullptr);
  std::vector<ir::DeoptFrame> materialized(frames.begin(), frames.end());
  ir::MaterializeDeoptObjects(
      objects, [](int64_t bytes) { return heap::AllocateTraced(static_cast<size_t>(bytes)); },
      absl::MakeSpan(addresses), materialized);
  return ResumeMaterialized(engine, target, compilation, materialized, reason, action, arguments);
}

}  // namespace morel::runtime
