#ifndef MOREL_LANGUAGES_SL_RUNTIME_VALUE_PRINTING_H_
#define MOREL_LANGUAGES_SL_RUNTIME_VALUE_PRINTING_H_

// The textual forms of SL values. Each is a table of sl_spec.md:
//
//   DisplayString   §5.3  println, main's printed result
//   ConcatString    §5.4  operands of `+` concatenation, property keys
//   HostString      §5.5  "Undefined function: X", stacktrace() values
//   TypeErrorValue  §8.1  values listed in type errors ("Number 3",
//                         "String \"4\"", "NULL")
//   TypeName              typeOf names: Number, String, ...

#include <string>

#include "nodes/value.h"

namespace morel::sl {

std::string DisplayString(const Value& v);
std::string ConcatString(const Value& v);
std::string HostString(const Value& v);
std::string TypeErrorValue(const Value& v);
const char* TypeName(const Value& v);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_VALUE_PRINTING_H_
