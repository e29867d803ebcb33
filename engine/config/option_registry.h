#ifndef MOREL_ENGINE_CONFIG_OPTION_REGISTRY_H_
#define MOREL_ENGINE_CONFIG_OPTION_REGISTRY_H_

// The engine options as derived from engine_config.proto's descriptor: option
// names, typed setters with validation, and --help text. Nothing here lists an
// option by hand; adding a field to EngineConfig adds the option everywhere.
//
// The same machinery serves any options schema written the same way (a proto2
// message whose fields are singular scalars or enums, each annotated with
// (morel.config.option)): a language's options (engine/api/language.h) are an
// OptionRegistry of the language's message under the group "<language id>",
// so `--sl.Name=value` is parsed, validated and listed like `--engine.Name`.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/config/engine_config.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace morel::config {

// One engine option: an EngineConfig field and its metadata.
struct OptionInfo {
  std::string name;  // "SplittingMaxCalleeSize" (without the "<group>." prefix)
  const google::protobuf::FieldDescriptor* field;
  OptionSpec spec;  // the (morel.config.option) annotation

  // "int32", "bool", "double", "string", or "Silent|Print|..." for enums.
  std::string TypeName() const;
  // The schema default, formatted as it would be written on the command line.
  std::string DefaultText() const;
};

// Converts a field name to its option name: "osr_compilation_threshold" ->
// "OSRCompilationThreshold". Exposed for tests.
std::string FieldNameToOptionName(absl::string_view field_name);

// The value of a quantity option (OptionSpec::unit): "500ms" is 500 for
// DURATION (milliseconds), "64KB" is 65536 for BYTE_SIZE (bytes); the empty
// string (not set) is -1. An error for anything else.
absl::StatusOr<int64_t> ParseQuantity(OptionSpec::Unit unit, absl::string_view text);

class OptionRegistry {
 public:
  // The registry of EngineConfig (group "engine"), built once from the
  // descriptor.
  static const OptionRegistry& Get();

  // The registry of `schema`, whose options are written "<group>.<Name>".
  // Aborts (a mistake in the schema, caught by any test that builds it) if
  // a field is repeated, a message, or lacks its (morel.config.option).
  OptionRegistry(const google::protobuf::Descriptor* schema, std::string group);

  const google::protobuf::Descriptor* schema() const { return schema_; }
  const std::string& group() const { return group_; }

  const std::vector<OptionInfo>& options() const { return options_; }

  // Exact (case-sensitive) lookup by option name, without "engine.".
  const OptionInfo* Find(absl::string_view name) const;
  // The closest option name by edit distance (case-insensitive), or "" when
  // nothing is close enough to be a plausible typo.
  std::string Suggest(absl::string_view name) const;

  // Parses `value` for option `name` and stores it in `config` (a message
  // of schema()). Errors name the option and what it accepts: unknown option
  // (with a suggestion), wrong type, or out of range.
  absl::Status Set(google::protobuf::Message& config, absl::string_view name,
                   absl::string_view value) const;
  // A command-line setting: `setting` is what follows "--<group>.", either
  // "<Name>=<value>" (Set) or "<Name>" alone, which sets a boolean option
  // to true; a bare option of another type is an error naming it and what
  // it takes ("option <group>.<Name> needs a value:
  // --<group>.<Name>=<type>"), an unknown one as Set's.
  absl::Status SetFromFlag(google::protobuf::Message& config,
                           absl::string_view setting) const;
  // Checks every set field of `config` (a message of schema()) against its
  // declared range.
  absl::Status Validate(const google::protobuf::Message& config) const;

  // The --help text: every option grouped by category, with type, default and
  // help.
  std::string HelpText() const;

 private:
  absl::Status CheckSchema(const google::protobuf::Message& config) const;
  absl::Status CheckRange(const OptionInfo& option, double value) const;
  absl::Status CheckQuantity(const OptionInfo& option, absl::string_view value) const;

  const google::protobuf::Descriptor* schema_;
  std::string group_;
  std::vector<OptionInfo> options_;
};

}  // namespace morel::config

#endif  // MOREL_ENGINE_CONFIG_OPTION_REGISTRY_H_
