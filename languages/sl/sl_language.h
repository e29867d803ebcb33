#ifndef MOREL_LANGUAGES_SL_SL_LANGUAGE_H_
#define MOREL_LANGUAGES_SL_SL_LANGUAGE_H_

// SL's implementation of the language interface (engine/api/language.h):
// the Language "sl" (registered by //languages/sl:language) and its
// LanguageContext, a wrapper of SLContext that turns SL's exceptions into
// absl::Status. Its options are SLOptions (options/sl_options.proto). Its instance
// (CreateInstance) is SLSharedCode: contexts of an engine that has one
// share code.

#include <memory>
#include <vector>

#include "engine/api/language.h"

namespace morel::sl {

class SLLanguage : public api::Language {
 public:
  absl::string_view id() const override { return "sl"; }
  absl::string_view name() const override { return "SimpleLanguage"; }
  absl::string_view file_extension() const override { return ".sl"; }
  absl::string_view launcher_description() const override;
  std::unique_ptr<api::LanguageInstance> CreateInstance(runtime::Engine& engine) const override;
  // SLOptions (options/sl_options.proto): --sl.UseBytecode.
  const google::protobuf::Message* options_prototype() const override;
  absl::StatusOr<std::unique_ptr<api::LanguageContext>> CreateContext(
      runtime::Engine& engine, api::LanguageInstance* instance,
      const google::protobuf::Message* options, const api::ContextStreams& streams,
      bool owns_engine) const override;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_SL_LANGUAGE_H_
