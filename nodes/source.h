#ifndef MOREL_NODES_SOURCE_H_
#define MOREL_NODES_SOURCE_H_

// Guest source text and sections of it, for error locations, traces and
// TraceSplitting's SourceSection property.

#include <memory>
#include <string>

namespace morel {

class Source {
 public:
  Source(std::string name, std::string text)
      : name_(std::move(name)), text_(std::move(text)) {}

  // The name shown in messages: a file name without its directory, or a
  // pseudo-name such as "(eval)".
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }

 private:
  std::string name_;
  std::string text_;
};

// A contiguous piece of a Source. Invalid (no source) by default.
struct SourceSection {
  std::shared_ptr<const Source> source;
  int line = 0;         // 1-based
  int column = 0;       // 1-based
  int char_index = 0;   // 0-based
  int char_length = 0;

  bool IsValid() const { return source != nullptr; }
};

}  // namespace morel

#endif  // MOREL_NODES_SOURCE_H_
