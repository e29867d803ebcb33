#include "splitting/decision_dump.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nodes/call_nodes.h"
#include "nodes/root_node.h"

namespace morel::splitting {
namespace {

// Nodes in first-seen order, and the edges between them.
struct ChainGraph {
  std::vector<const Node*> nodes;
  std::map<const Node*, int> ids;
  struct Edge {
    int from;
    int to;
    const char* label;
  };
  std::vector<Edge> edges;
};

std::string Label(const Node& node) {
  std::string label(node.kind_name().data(), node.kind_name().size());
  if (const auto* root = dynamic_cast<const RootNode*>(&node)) {
    if (root->call_target() != nullptr) {
      absl::StrAppend(&label, "\n", root->call_target()->name());
    }
  }
  if (const auto* call = dynamic_cast<const DirectCallNode*>(&node)) {
    absl::StrAppend(&label, "\n-> ", call->current_call_target()->name());
  }
  const SourceSection& section = node.source_section();
  if (section.IsValid()) {
    absl::StrAppend(&label, "\n", section.source->name(), ":", section.line, ":",
                    section.column);
  }
  return label;
}

ChainGraph BuildGraph(const DecisionChain& chain) {
  ChainGraph graph;
  for (const Node* node : chain.nodes) {
    if (graph.ids.count(node) != 0) continue;
    graph.ids[node] = static_cast<int>(graph.nodes.size());
    graph.nodes.push_back(node);
  }
  for (const Node* node : graph.nodes) {
    auto parent = graph.ids.find(node->parent());
    if (node->parent() != nullptr && parent != graph.ids.end()) {
      graph.edges.push_back({parent->second, graph.ids[node], "child"});
    }
    if (const auto* call = dynamic_cast<const DirectCallNode*>(node)) {
      const Node* callee = call->call_target()->root_node();
      auto it = graph.ids.find(callee);
      if (it != graph.ids.end()) graph.edges.push_back({graph.ids[node], it->second, "calls"});
    }
  }
  return graph;
}

std::string DotEscape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string XmlEscape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

bool IsMarkedRoot(const DecisionChain& chain, const Node* node) {
  return chain.marked != nullptr && node == chain.marked->root_node();
}

std::string FileStem(const CallTarget* target) {
  std::string name = target != nullptr ? target->name() : "unknown";
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  return name;
}

absl::Status WriteFile(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return absl::InternalError(absl::StrCat("SplittingDumpDecisions: cannot write '",
                                            path, "': ", std::strerror(errno)));
  }
  std::fwrite(text.data(), 1, text.size(), file);
  std::fclose(file);
  return absl::OkStatus();
}

}  // namespace

void DecisionChain::AddParentChain(const Node* node) {
  for (; node != nullptr; node = node->parent()) nodes.push_back(node);
}

std::string ChainToDot(const DecisionChain& chain) {
  ChainGraph graph = BuildGraph(chain);
  std::string title = chain.marked != nullptr ? chain.marked->name() : "";
  std::string out = absl::StrCat("digraph \"split decision: ", DotEscape(title),
                                 "\" {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\"];\n");
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node* node = graph.nodes[i];
    std::string style;
    if (node == chain.source) {
      style = ", style=filled, fillcolor=\"#f4b6b6\"";
    } else if (IsMarkedRoot(chain, node)) {
      style = ", style=filled, fillcolor=\"#b6d7f4\"";
    } else if (dynamic_cast<const DirectCallNode*>(node) != nullptr) {
      style = ", style=filled, fillcolor=\"#f4e3b6\"";
    }
    absl::StrAppend(&out, "  n", i, " [label=\"", DotEscape(Label(*node)), "\"", style,
                    "];\n");
  }
  for (const ChainGraph::Edge& edge : graph.edges) {
    absl::StrAppend(&out, "  n", edge.from, " -> n", edge.to, " [label=\"", edge.label,
                    "\"", std::string(edge.label) == "calls" ? ", style=dashed" : "",
                    "];\n");
  }
  out += "}\n";
  return out;
}

std::string ChainToIgvXml(const DecisionChain& chain) {
  ChainGraph graph = BuildGraph(chain);
  std::string title = chain.marked != nullptr ? chain.marked->name() : "";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphDocument>\n";
  absl::StrAppend(&out, "  <group>\n    <properties>\n      <p name=\"name\">",
                  XmlEscape(absl::StrCat("Split decision: ", title)),
                  "</p>\n    </properties>\n");
  absl::StrAppend(&out, "    <graph name=\"", XmlEscape(title), "\">\n      <nodes>\n");
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node* node = graph.nodes[i];
    std::string label = Label(*node);
    for (char& c : label) {
      if (c == '\n') c = ' ';
    }
    absl::StrAppend(&out, "        <node id=\"", i, "\">\n          <properties>\n");
    absl::StrAppend(&out, "            <p name=\"name\">", XmlEscape(label), "</p>\n");
    absl::StrAppend(&out, "            <p name=\"class\">",
                    XmlEscape(std::string(node->kind_name().data(), node->kind_name().size())),
                    "</p>\n");
    const char* role = node == chain.source            ? "reporting node"
                       : IsMarkedRoot(chain, node)      ? "marked target"
                       : dynamic_cast<const DirectCallNode*>(node) != nullptr ? "call node"
                                                                              : "";
    if (*role != '\0') absl::StrAppend(&out, "            <p name=\"role\">", role, "</p>\n");
    absl::StrAppend(&out, "          </properties>\n        </node>\n");
  }
  absl::StrAppend(&out, "      </nodes>\n      <edges>\n");
  std::map<int, int> next_index;
  for (const ChainGraph::Edge& edge : graph.edges) {
    absl::StrAppend(&out, "        <edge from=\"", edge.from, "\" to=\"", edge.to,
                    "\" index=\"", next_index[edge.from]++, "\" label=\"", edge.label,
                    "\"/>\n");
  }
  absl::StrAppend(&out, "      </edges>\n    </graph>\n  </group>\n</graphDocument>\n");
  return out;
}

absl::StatusOr<std::string> WriteDecisionDump(const DecisionChain& chain,
                                              const std::string& directory, int index) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return absl::InternalError(absl::StrCat("SplittingDumpDecisions: cannot create '",
                                            directory, "': ", error.message()));
  }
  std::string stem =
      absl::StrCat(directory, "/decision-", index, "-", FileStem(chain.marked));
  std::string dot = stem + ".dot";
  absl::Status status = WriteFile(dot, ChainToDot(chain));
  if (!status.ok()) return status;
  status = WriteFile(stem + ".xml", ChainToIgvXml(chain));
  if (!status.ok()) return status;
  return dot;
}

}  // namespace morel::splitting
