#ifndef MOREL_NODES_POLYMORPHISM_H_
#define MOREL_NODES_POLYMORPHISM_H_

// Polymorphism reporting policies (Truffle's @ReportPolymorphism,
// @ReportPolymorphism.Exclude, @ReportPolymorphism.Megamorphic), declared
// once per node class with one of the macros below inside the class body.
// Like Truffle's @Inherited annotation, the choice is inherited by every
// subclass (it is a virtual override); a subclass changes it by declaring
// another one:
//
//   class SLOperator : public SLExpressionNode {
//     MOREL_REPORT_POLYMORPHISM
//     ...
//   };
//   class SLEqualNode : public SLOperatorNode<...> {
//     MOREL_REPORT_POLYMORPHISM_EXCLUDE  // equality is cheap when generic
//   };
//
// Per-specialization choices live in the specialization structs
// (SpecializationReporting in nodes/specialization.h).

#include "nodes/node.h"

namespace morel {

#define MOREL_REPORT_POLYMORPHISM                                      \
  ::morel::PolymorphismReporting polymorphism_reporting() const override { \
    return ::morel::PolymorphismReporting::kReport;                    \
  }
#define MOREL_REPORT_POLYMORPHISM_EXCLUDE                              \
  ::morel::PolymorphismReporting polymorphism_reporting() const override { \
    return ::morel::PolymorphismReporting::kExclude;                   \
  }
#define MOREL_REPORT_POLYMORPHISM_MEGAMORPHIC                          \
  ::morel::PolymorphismReporting polymorphism_reporting() const override { \
    return ::morel::PolymorphismReporting::kMegamorphic;               \
  }

}  // namespace morel

#endif  // MOREL_NODES_POLYMORPHISM_H_
