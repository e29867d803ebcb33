#ifndef MOREL_INLINER_EVENT_FORMAT_H_
#define MOREL_INLINER_EVENT_FORMAT_H_

// The layout of a TraceInlining line: Truffle's
// TruffleCompilerRuntime#logEvent, which formats with
// formatEvent(depth, event, 12, subject, 60, properties, 0):
//
//   "%-12s" event, "%<1+2*depth>s" of "", "%-<max(1, 60-2*depth)>s" subject,
//   then "|" + name + " " + value per property (no padding between
//   properties: the property width is 0), where an Integer prints "%6d", a
//   Double "%8.2f" and a Boolean "true"/"false".
//
// Java's "%.2f" rounds the shortest decimal representation of the double
// (Double.toString's digits) half-up, and prints NaN and infinities by name;
// FormatJavaFixed reproduces that, so that 0.125 prints "0.13" as in Java
// (C's printf would print "0.12").
//
// Not splitting::FormatEvent: that one depends on the node model and the
// engine's config (this library depends on Abseil only), prints doubles with
// C's rounding and ends each property with a space (the older formatEvent).

#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"

namespace morel::inliner {

struct TraceProperty {
  std::string name;
  std::variant<int, double, bool> value;
};

// Java's String.format("%<width>.<precision>f", value).
std::string FormatJavaFixed(double value, int width, int precision);

// A property value as formatEvent prints it: "%6d", "%8.2f" or the boolean.
std::string FormatPropertyValue(const std::variant<int, double, bool>& value);

// One event line, without the logger's "[engine] " prefix.
std::string FormatEvent(int depth, absl::string_view event,
                        absl::string_view subject,
                        const std::vector<TraceProperty>& properties);

}  // namespace morel::inliner

#endif  // MOREL_INLINER_EVENT_FORMAT_H_
