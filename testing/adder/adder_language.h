#ifndef MOREL_TESTING_ADDER_ADDER_LANGUAGE_H_
#define MOREL_TESTING_ADDER_ADDER_LANGUAGE_H_

// "adder": a second language that is not SL, for the tests of the language
// interface (engine/api/language_test.cc). Its sources are lines
// "<name> <integer>", each defining <name>(x) = x + <integer>, or
// "<name> fail", defining a function that raises a guest error; its
// nodes are the test language's (testing/test_language). Its options schema
// is engine/api/test_language_options.proto, the schema the language-options
// mechanism is tested with; each option acts here:
//   MaxDefinitions  Eval refuses the definition past the limit;
//   StrictMode      Eval refuses a negative constant;
//   Greeting        RunProgram prints it first.
// Nothing in engine/ knows about it: it plugs in through the registry
// (:adder registers it), the generic launcher and the embedding API.

#include <memory>
#include <vector>

#include "engine/api/language.h"

namespace morel::adder {

class AdderLanguage : public api::Language {
 public:
  absl::string_view id() const override { return "adder"; }
  absl::string_view name() const override { return "Adder"; }
  absl::string_view file_extension() const override { return ".add"; }
  absl::string_view launcher_description() const override { return "Runs main(0).\n"; }
  const google::protobuf::Message* options_prototype() const override;
  absl::StatusOr<std::unique_ptr<api::LanguageContext>> CreateContext(
      runtime::Engine& engine, api::LanguageInstance* instance,
      const google::protobuf::Message* options, const api::ContextStreams& streams,
      bool owns_engine) const override;
};

}  // namespace morel::adder

#endif  // MOREL_TESTING_ADDER_ADDER_LANGUAGE_H_
