#ifndef MOREL_SPLITTING_EVENT_FORMAT_H_
#define MOREL_SPLITTING_EVENT_FORMAT_H_

// The layout of engine event lines (Truffle's TruffleCompilerRuntime
// #formatEvent) and the pieces TraceSplitting puts in them: a call target's
// debug properties (OptimizedCallTarget#getDebugProperties) and a call
// site's short source description (TraceSplittingListener).
//
//   FormatEvent(0, "split   0-7 ", 12, "add", 60, {{"AST", "   5"}, ...}, 0)
//   == "split   0-7   add" + padding to 60 + " |AST    5 |..."
//
// The engine's compilation traces will use the same layout; they can move
// this file to a shared package when they arrive.

#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "nodes/call_target.h"
#include "nodes/node.h"
#include "nodes/source.h"
#include "splitting/splitting_options.h"

namespace morel::splitting {

// One "|Name value " property. Integers print as "%6d", doubles as "%8.2f",
// strings as they are (Java's Integer / Double / toString cases).
struct EventProperty {
  std::string name;
  std::variant<int, double, std::string> value;
};

// "%-<event_width>s" event, "%<1+2*depth>s" of "", "%-<max(1,
// subject_width-2*depth)>s" subject, then " |name value" per property: each
// property is "|" + name + String.format(" %<max(1, property_width -
// name.length)>s ", value).
std::string FormatEvent(int depth, absl::string_view event, int event_width,
                        absl::string_view subject, int subject_width,
                        const std::vector<EventProperty>& properties,
                        int property_width);

// `<source name>~<line>[-<end line>]:<char index>[-<last char index>]`, or
// "<Unknown>" for an invalid section.
std::string ShortSourceDescription(const SourceSection* section);

// The first source section found walking up from `node` (stopping at the
// root), described as above; "" if the walk leaves the tree first.
std::string CallSiteSourceDescription(const Node& node);

// AST ("%4d" node count), Tier ("1" when multi-tier; Morel has no compiled
// code yet, so never "2"), Calls/Thres ("%7d/%5d"), CallsAndLoop/Thres.
std::vector<EventProperty> TargetDebugProperties(const CallTarget& target,
                                                 const SplittingOptions& options);

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_EVENT_FORMAT_H_
