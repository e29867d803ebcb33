#include "inliner/event_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace morel::inliner {
namespace {

// Adds one unit in the last place of a string of decimal digits; returns
// whether that carried into a new leading digit.
bool IncrementDigits(std::string& digits) {
  for (int i = static_cast<int>(digits.size()) - 1; i >= 0; --i) {
    if (digits[i] != '9') {
      ++digits[i];
      return false;
    }
    digits[i] = '0';
  }
  digits.insert(digits.begin(), '1');
  return true;
}

}  // namespace

std::string FormatJavaFixed(double value, int width, int precision) {
  if (std::isnan(value)) return absl::StrFormat("%*s", width, "NaN");
  if (std::isinf(value)) {
    return absl::StrFormat("%*s", width, value < 0 ? "-Infinity" : "Infinity");
  }
  double magnitude = std::fabs(value);

  // The shortest digits that read back as `magnitude` (what Double.toString
  // prints), with the decimal point after the first `point` of them
  // (magnitude = 0.<digits> * 10^point).
  std::string digits = "0";
  int point = 1;
  if (magnitude != 0) {
    // d[.ddd]e<sign><exponent>; to_chars does not terminate it.
    char buffer[64];
    char* end = std::to_chars(buffer, buffer + sizeof(buffer) - 1, magnitude,
                              std::chars_format::scientific)
                    .ptr;
    *end = '\0';
    char* e = std::find(buffer, end, 'e');
    digits.assign(buffer, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    point = std::atoi(e + 1) + 1;
  }
  // At least one integer digit.
  if (point <= 0) {
    digits.insert(0, 1 - point, '0');
    point = 1;
  }

  // Java's FormattedFloatingDecimal#applyPrecision: half-up on these digits.
  size_t kept = point + precision;
  if (digits.size() > kept) {
    bool round_up = digits[kept] >= '5';
    digits.resize(kept);
    if (round_up && IncrementDigits(digits)) ++point;
  }
  digits.resize(point + precision, '0');

  std::string out = absl::StrCat(std::signbit(value) ? "-" : "", digits.substr(0, point));
  if (precision > 0) absl::StrAppend(&out, ".", digits.substr(point));
  return absl::StrFormat("%*s", width, out);
}

std::string FormatPropertyValue(const std::variant<int, double, bool>& value) {
  if (const int* i = std::get_if<int>(&value)) return absl::StrFormat("%6d", *i);
  if (const double* d = std::get_if<double>(&value)) return FormatJavaFixed(*d, 8, 2);
  return std::get<bool>(value) ? "true" : "false";
}

std::string FormatEvent(int depth, absl::string_view event,
                        absl::string_view subject,
                        const std::vector<TraceProperty>& properties) {
  constexpr int kEventWidth = 12;
  constexpr int kSubjectWidth = 60;
  std::string line = absl::StrFormat("%-*s%*s%-*s", kEventWidth, event, 1 + 2 * depth, "",
                                     std::max(1, kSubjectWidth - 2 * depth), subject);
  for (const TraceProperty& property : properties) {
    // " %<max(1, 0 - name length)>s": the value is never empty, so no padding.
    absl::StrAppend(&line, "|", property.name, " ", FormatPropertyValue(property.value));
  }
  return line;
}

}  // namespace morel::inliner
