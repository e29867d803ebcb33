#ifndef MOREL_TESTING_TEST_LANGUAGE_ROOT_NODE_H_
#define MOREL_TESTING_TEST_LANGUAGE_ROOT_NODE_H_

// The root of a test-language function: evaluates its body. Whether it may be
// split and the size it reports to the splitting budget are options, so
// splitting tests can choose them.

#include <memory>
#include <string>
#include <utility>

#include "nodes/root_node.h"
#include "testing/test_language/expression_nodes.h"

namespace morel::test_language {

struct RootOptions {
  bool cloning_allowed = false;
  // RootNode::ComputeSize(); <= 0 means "count the nodes".
  int compute_size = -1;
};

class TlRootNode final : public RootNode {
 public:
  MOREL_NODE_KIND(TlRootNode)
  TlRootNode(std::string name, std::unique_ptr<TlExpression> body,
             std::unique_ptr<FrameDescriptor> descriptor = nullptr,
             RootOptions options = {}, SourceSection section = {})
      : RootNode(std::move(section), std::move(name), std::move(descriptor)),
        body_(std::move(body)),
        options_(options) {}

  // Written once (nodes/execution.h); the test language is never compiled.
  MOREL_INTERPRETED_BY_RUN(TlRootNode, Value, Execute)
  template <typename X>
  typename X::V Run(X& x) {
    return x.Execute(body_);
  }
  MOREL_CHILDREN(body_)
  bool IsCloningAllowed() const override { return options_.cloning_allowed; }
  // Same name, options and slot names; every node uninitialized.
  std::unique_ptr<RootNode> CloneUninitialized() const override {
    return std::make_unique<TlRootNode>(name(), body_->CloneUninitialized(),
                                        frame_descriptor().CopyUninitialized(),
                                        options_, source_section());
  }
  int ComputeSize() const override { return options_.compute_size; }

  TlExpression* body() const { return body_.get(); }

 private:
  Child<TlExpression> body_;
  RootOptions options_;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_ROOT_NODE_H_
