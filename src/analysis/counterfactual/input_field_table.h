// The fields a function-input reader has found (function_inputs.cpp over the ir, python_inputs.cpp
// over Python's ast): in the order the code first reads them, at addresses that stay put while more
// are added.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "analysis/counterfactual/function_inputs.h"

namespace codebias::analysis {

class InputFieldTable {
 public:
  // The field of that name, added empty when the code had not read it yet.
  InputField& field(const std::string& name) {
    const auto [it, inserted] = index_.try_emplace(name, fields_.size());
    if (inserted) fields_.push_back(InputField{name, {}, {}, {}, {}, {}});
    return fields_[it->second];
  }
  InputField* find(const std::string& name) {
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &fields_[it->second];
  }
  std::vector<InputField> take_fields() const { return {fields_.begin(), fields_.end()}; }

 private:
  std::deque<InputField> fields_;
  std::map<std::string, std::size_t> index_;
};

}  // namespace codebias::analysis
