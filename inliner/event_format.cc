#include "inliner/event_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace morel::inliner {
namespace {

std::string PadLeft(std::string text, int width) {
  if (static_cast<int>(text.size()) < width) text.insert(0, width - text.size(), ' ');
  return text;
}

std::string PadRight(absl::string_view text, int width) {
  std::string out(text);
  if (static_cast<int>(out.size()) < width) out.append(width - out.size(), ' ');
  return out;
}

// Adds one unit in the last place of a string of decimal digits.
void IncrementDigits(std::string& digits) {
  for (int i = static_cast<int>(digits.size()) - 1; i >= 0; --i) {
    if (digits[i] != '9') {
      ++digits[i];
      return;
    }
    digits[i] = '0';
  }
  digits.insert(digits.begin(), '1');
}

}  // namespace

std::string FormatJavaFixed(double value, int width, int precision) {
  if (std::isnan(value)) return PadLeft("NaN", width);
  if (std::isinf(value)) return PadLeft(value < 0 ? "-Infinity" : "Infinity", width);
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);

  // The shortest digits that read back as `magnitude` (what Double.toString
  // prints), as d.ddd e<exponent>.
  std::string digits = "0";
  int exponent = 0;
  if (magnitude != 0) {
    char buffer[64];
    auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), magnitude,
                                      std::chars_format::scientific);
    std::string scientific(buffer, end);
    size_t e = scientific.find('e');
    digits.clear();
    for (size_t i = 0; i < e; ++i) {
      if (scientific[i] != '.') digits.push_back(scientific[i]);
    }
    exponent = std::atoi(scientific.c_str() + e + 1);
  }

  // Split into integer and fraction digits at the decimal point.
  int point = exponent + 1;
  std::string integer;
  std::string fraction;
  if (point <= 0) {
    integer = "0";
    fraction = std::string(-point, '0') + digits;
  } else if (point >= static_cast<int>(digits.size())) {
    integer = digits + std::string(point - digits.size(), '0');
  } else {
    integer = digits.substr(0, point);
    fraction = digits.substr(point);
  }

  // Java's FormattedFloatingDecimal#applyPrecision: half-up on these digits.
  if (static_cast<int>(fraction.size()) > precision) {
    bool round_up = fraction[precision] >= '5';
    fraction.resize(precision);
    if (round_up) {
      std::string all = integer + fraction;
      IncrementDigits(all);
      integer = all.substr(0, all.size() - precision);
      fraction = all.substr(all.size() - precision);
    }
  }
  fraction.append(precision - fraction.size(), '0');

  std::string out = negative ? "-" : "";
  absl::StrAppend(&out, integer);
  if (precision > 0) absl::StrAppend(&out, ".", fraction);
  return PadLeft(std::move(out), width);
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
  std::string line = PadRight(event, kEventWidth);
  line.append(1 + 2 * depth, ' ');
  line += PadRight(subject, std::max(1, kSubjectWidth - 2 * depth));
  for (const TraceProperty& property : properties) {
    // " %<max(1, 0 - name length)>s": the value is never empty, so no padding.
    absl::StrAppend(&line, "|", property.name, " ", FormatPropertyValue(property.value));
  }
  return line;
}

}  // namespace morel::inliner
