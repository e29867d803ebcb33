#include "splitting/event_format.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nodes/root_node.h"

namespace morel::splitting {
namespace {

std::string PadRight(absl::string_view text, int width) {
  std::string out(text);
  if (static_cast<int>(out.size()) < width) out.append(width - out.size(), ' ');
  return out;
}

std::string PadLeft(absl::string_view text, int width) {
  std::string out;
  if (static_cast<int>(text.size()) < width) out.append(width - text.size(), ' ');
  out.append(text.data(), text.size());
  return out;
}

std::string FormatValue(const std::variant<int, double, std::string>& value) {
  if (const int* i = std::get_if<int>(&value)) return absl::StrFormat("%6d", *i);
  if (const double* d = std::get_if<double>(&value)) return absl::StrFormat("%8.2f", *d);
  return std::get<std::string>(value);
}

// The 1-based line of the character at `index` in `text`.
int LineOf(const std::string& text, int index) {
  int line = 1;
  int end = std::min<int>(index, text.size());
  for (int i = 0; i < end; ++i) {
    if (text[i] == '\n') ++line;
  }
  return line;
}

}  // namespace

std::string FormatEvent(int depth, absl::string_view event, int event_width,
                        absl::string_view subject, int subject_width,
                        const std::vector<EventProperty>& properties,
                        int property_width) {
  std::string line = PadRight(event, event_width);
  line.append(1 + 2 * depth, ' ');
  line += PadRight(subject, std::max(1, subject_width - 2 * depth));
  for (const EventProperty& property : properties) {
    int width = std::max(1, property_width - static_cast<int>(property.name.size()));
    absl::StrAppend(&line, "|", property.name, " ",
                    PadLeft(FormatValue(property.value), width), " ");
  }
  return line;
}

std::string ShortSourceDescription(const SourceSection* section) {
  if (section == nullptr || !section->IsValid()) return "<Unknown>";
  int start_line = section->line;
  int end_line = start_line;
  if (section->char_length > 1) {
    // The source knows where the section ends; the section keeps only its start.
    end_line = start_line + LineOf(section->source->text(),
                                   section->char_index + section->char_length - 1) -
               LineOf(section->source->text(), section->char_index);
  }
  std::string out = absl::StrCat(section->source->name(), "~", start_line);
  if (end_line != start_line) absl::StrAppend(&out, "-", end_line);
  absl::StrAppend(&out, ":", section->char_index);
  if (section->char_length > 1) {
    absl::StrAppend(&out, "-", section->char_index + section->char_length - 1);
  }
  return out;
}

std::string CallSiteSourceDescription(const Node& node) {
  const Node* current = &node;
  while (!current->source_section().IsValid() &&
         dynamic_cast<const RootNode*>(current) == nullptr) {
    current = current->parent();
    if (current == nullptr) return "";
  }
  return ShortSourceDescription(&current->source_section());
}

std::vector<EventProperty> TargetDebugProperties(const CallTarget& target,
                                                 const SplittingOptions& options) {
  std::vector<EventProperty> properties;
  properties.push_back({"AST", absl::StrFormat("%4d", target.root_node()->CountNodes())});
  if (options.multi_tier) properties.push_back({"Tier", std::string("1")});
  properties.push_back(
      {"Calls/Thres", absl::StrFormat("%7d/%5d", target.call_count(),
                                      options.call_threshold_in_interpreter)});
  properties.push_back(
      {"CallsAndLoop/Thres",
       absl::StrFormat("%7d/%5d", target.call_and_loop_count(),
                       options.call_and_loop_threshold_in_interpreter)});
  return properties;
}

}  // namespace morel::splitting
