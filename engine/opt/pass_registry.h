#ifndef MOREL_ENGINE_OPT_PASS_REGISTRY_H_
#define MOREL_ENGINE_OPT_PASS_REGISTRY_H_

// PassRegistry: pass name -> factory. Used by the ir_opt driver, to build
// pipelines from "a,b,c" strings, and to validate DisablePasses / DumpIR.
// Registration is explicit (RegisterStandardPasses), not by static
// initializers, so nothing depends on link order or alwayslink.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/opt/pass.h"

namespace morel::opt {

class PassRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Pass>()>;

  // AlreadyExists if the name is taken.
  absl::Status Register(std::string name, Factory factory);
  template <typename T>
  absl::Status Register() {
    return Register(std::string(T().name()), [] { return std::make_unique<T>(); });
  }

  bool Contains(absl::string_view name) const;
  // NotFound "unknown pass 'x' (known passes: a, b, c)".
  absl::StatusOr<std::unique_ptr<Pass>> Create(absl::string_view name) const;
  std::vector<std::string> names() const;  // sorted

  // A registry holding the standard passes (standard_passes.h); immutable.
  static const PassRegistry& Standard();

 private:
  std::map<std::string, Factory, std::less<>> factories_;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_PASS_REGISTRY_H_
