#include "testing/adder/adder_language.h"

#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/api/test_language_options.pb.h"
#include "engine/runtime/engine.h"
#include "nodes/guest_error.h"
#include "testing/test_language/builders.h"

namespace morel::adder {
namespace {

namespace tl = ::morel::test_language;

class AdderContext : public api::LanguageContext {
 public:
  AdderContext(runtime::Engine& engine, api::testing::TestLanguageOptions options,
               api::ContextStreams streams)
      : engine_(engine), options_(std::move(options)), streams_(streams) {}

  absl::StatusOr<morel::Value> Eval(absl::string_view text,
                                    absl::string_view source_name) override {
    int line_number = 0;
    int definitions = 0;
    for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
      ++line_number;
      std::vector<absl::string_view> words = absl::StrSplit(line, ' ');
      auto syntax_error = [&](int column, absl::string_view what) {
        return absl::InvalidArgumentError(
            absl::StrCat(source_name, ":", line_number, ":", column, ": ", what));
      };
      if (words.size() != 2) return syntax_error(1, "expected '<name> <integer>'");
      if (++definitions > options_.max_definitions()) {
        return syntax_error(1, "too many definitions (adder.MaxDefinitions)");
      }
      tl::Expr body;
      int64_t constant;
      if (words[1] == "fail") {
        body = tl::ThrowIf(tl::Bool(true), absl::StrCat(words[0], " failed at ", source_name,
                                                        ":", line_number));
      } else if (absl::SimpleAtoi(words[1], &constant)) {
        if (options_.strict_mode() && constant < 0) {
          return syntax_error(words[0].size() + 2, "negative constant (adder.StrictMode)");
        }
        body = tl::Add(tl::Arg(0), tl::Const(constant));
      } else {
        return syntax_error(static_cast<int>(words[0].size()) + 2, "expected an integer");
      }
      functions_[std::string(words[0])] =
          tl::DefineFunction(engine_, std::string(words[0]), std::move(body));
    }
    return morel::Value::Long(definitions);
  }

  absl::Status RunProgram(absl::string_view text, absl::string_view source_name) override {
    std::fprintf(streams_.out, "%s\n", options_.greeting().c_str());
    absl::StatusOr<morel::Value> defined = Eval(text, source_name);
    if (!defined.ok()) return defined.status();
    absl::StatusOr<morel::Value> main = LookupFunction("main");
    if (!main.ok()) return absl::AbortedError("no main");
    absl::StatusOr<morel::Value> result = Call(*main, {morel::Value::Long(0)});
    if (!result.ok()) return result.status();
    std::fprintf(streams_.out, "%lld\n", static_cast<long long>(result->AsLong()));
    return absl::OkStatus();
  }

  absl::StatusOr<morel::Value> LookupFunction(absl::string_view name) override {
    auto it = functions_.find(std::string(name));
    if (it == functions_.end()) return absl::NotFoundError(absl::StrCat("no ", name));
    return tl::FunctionValue(it->second);
  }

  absl::StatusOr<morel::Value> Call(const morel::Value& callee,
                                    absl::Span<const morel::Value> args) override {
    CallTarget* target = CallTargetOf(callee);
    if (target == nullptr) return absl::InvalidArgumentError("not a function");
    try {
      return target->Call(args);
    } catch (const GuestError&) {
      return api::StatusOfCurrentGuestException();
    }
  }

  CallTarget* CallTargetOf(const morel::Value& function) override {
    for (const auto& [name, target] : functions_) {
      if (tl::FunctionValue(target) == function) return target;
    }
    return nullptr;
  }

  api::HostValue ToHost(const morel::Value& value) override {
    if (value.IsLong()) return api::HostValue::Int64(value.AsLong());
    api::HostValue other;
    other.kind = CallTargetOf(value) != nullptr ? api::HostValue::Kind::kFunction
                                                : api::HostValue::Kind::kOther;
    other.text = "<adder value>";
    return other;
  }

  absl::StatusOr<morel::Value> FromHost(const api::HostValue& value) override {
    if (value.kind == api::HostValue::Kind::kNumber && value.fits_int64) {
      return morel::Value::Long(value.int64);
    }
    return absl::InvalidArgumentError("adder takes integers only");
  }

  absl::Status Close() override { return absl::OkStatus(); }

 private:
  runtime::Engine& engine_;
  api::testing::TestLanguageOptions options_;
  api::ContextStreams streams_;
  std::map<std::string, CallTarget*> functions_;
};

}  // namespace

const google::protobuf::Message* AdderLanguage::options_prototype() const {
  return &api::testing::TestLanguageOptions::default_instance();
}

absl::StatusOr<std::unique_ptr<api::LanguageContext>> AdderLanguage::CreateContext(
    runtime::Engine& engine, api::LanguageInstance* instance,
    const google::protobuf::Message* options, const api::ContextStreams& streams,
    bool owns_engine) const {
  api::testing::TestLanguageOptions parsed;
  if (options != nullptr) parsed.CopyFrom(*options);
  return std::make_unique<AdderContext>(engine, parsed, streams);
}

}  // namespace morel::adder
