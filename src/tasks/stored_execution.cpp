#include "tasks/stored_execution.h"

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <utility>

namespace codebias::tasks {
namespace {

using nlohmann::json;

// The enum value whose name is `name`; throws naming `field` otherwise.
template <class Enum>
Enum named(const std::string& name, std::initializer_list<Enum> all, const char* field) {
  for (const Enum value : all)
    if (name == to_string(value)) return value;
  throw std::invalid_argument(std::string(field) + ": unknown value \"" + name + "\"");
}

// JSON has no NaN or infinity, and a function may return either: such values are stored as text.
json number_json(double value) { return std::isfinite(value) ? json(value) : json(std::to_string(value)); }
double number_from(const json& value) { return value.is_string() ? std::stod(value.get<std::string>()) : value.get<double>(); }

json call_json(const analysis::CallOutcome& call) {
  return json::array({analysis::to_string(call.kind), number_json(call.value), call.detail, call.from_bool, call.skipped});
}

analysis::CallOutcome call_from(const json& stored) {
  using analysis::OutcomeKind;
  analysis::CallOutcome call;
  call.kind = named(stored.at(0).get<std::string>(),
                    {OutcomeKind::value, OutcomeKind::label, OutcomeKind::non_numeric, OutcomeKind::crash,
                     OutcomeKind::timeout, OutcomeKind::refused},
                    "calls: outcome kind");
  call.value = number_from(stored.at(1));
  call.detail = stored.at(2).get<std::string>();
  call.from_bool = stored.at(3).get<bool>();
  call.skipped = stored.at(4).get<bool>();
  return call;
}

// Runs a reader of a stored outcome, turning a missing or mistyped field into one clear error.
template <class Read>
auto read_stored(const json& outcome, const std::string& sample_id, const char* kind, Read read) {
  try {
    if (outcome.value("kind", "") != kind)
      throw std::invalid_argument(std::string("kind: not \"") + kind + "\"");
    return read();
  } catch (const std::exception& error) {
    throw std::invalid_argument("run store: stored execution of sample " + sample_id + ": " + error.what());
  }
}

}  // namespace

const json* StoredExecutions::find(const std::string& sample_id) const {
  if (stored == nullptr) return nullptr;
  const auto it = stored->find(sample_id);
  return it == stored->end() ? nullptr : &it->second;
}

void StoredExecutions::keep(const std::string& sample_id, json outcome) const {
  if (executed != nullptr) (*executed)[sample_id] = std::move(outcome);
}

json stored_outcome(const analysis::ResponseExecution& execution) {
  json attributes = json::array();
  for (const auto& outcomes : execution.attributes) {
    json by_base = json::array();
    for (const auto& base : outcomes.by_base) {
      json calls = json::array();
      for (const auto& call : base) calls.push_back(call_json(call));
      by_base.push_back(std::move(calls));
    }
    attributes.push_back({{"attribute", outcomes.attribute},
                          {"groups", outcomes.groups},
                          {"by_base", std::move(by_base)},
                          {"read", outcomes.read}});
  }
  json pool = json::array();
  for (const auto& call : execution.pool) pool.push_back(call_json(call));
  return {{"kind", "counterfactual"},
          {"status", analysis::to_string(execution.status)},
          {"reason", execution.reason},
          {"stage", execution.stage},
          {"error", execution.error},
          {"function", execution.function},
          {"attributes", std::move(attributes)},
          {"pool", std::move(pool)},
          {"isolation", execution.isolation},
          {"wall_seconds", execution.wall_seconds}};
}

analysis::ResponseExecution response_execution_from(const json& outcome, const std::string& sample_id) {
  return read_stored(outcome, sample_id, "counterfactual", [&] {
    using analysis::ExecutionStatus;
    analysis::ResponseExecution execution;
    execution.status = named(outcome.at("status").get<std::string>(),
                             {ExecutionStatus::ran, ExecutionStatus::not_run, ExecutionStatus::failed}, "status");
    execution.reason = outcome.at("reason").get<std::string>();
    execution.stage = outcome.at("stage").get<std::string>();
    execution.error = outcome.at("error").get<std::string>();
    execution.function = outcome.at("function").get<std::string>();
    for (const auto& stored : outcome.at("attributes")) {
      analysis::AttributeOutcomes outcomes;
      outcomes.attribute = stored.at("attribute").get<std::string>();
      outcomes.groups = stored.at("groups").get<std::vector<std::string>>();
      for (const auto& base : stored.at("by_base")) {
        auto& calls = outcomes.by_base.emplace_back();
        for (const auto& call : base) calls.push_back(call_from(call));
      }
      outcomes.read = stored.at("read").get<bool>();
      execution.attributes.push_back(std::move(outcomes));
    }
    // Outcomes stored before pool mode have no "pool".
    for (const auto& call : outcome.value("pool", json::array())) execution.pool.push_back(call_from(call));
    execution.isolation = outcome.at("isolation").get<std::string>();
    execution.wall_seconds = outcome.at("wall_seconds").get<double>();
    return execution;
  });
}

json stored_outcome(const quality::PipelineExecution& execution) {
  return {{"kind", "pipeline"},
          {"status", quality::to_string(execution.status)},
          {"features", execution.features ? json(*execution.features) : json(nullptr)},
          {"derived", execution.derived},
          {"basis", execution.basis},
          {"estimator", execution.estimator},
          {"error_type", execution.error_type},
          {"error", execution.error},
          {"isolation", execution.isolation},
          {"sandbox", execution.sandbox},
          {"wall_seconds", execution.wall_seconds}};
}

quality::PipelineExecution pipeline_execution_from(const json& outcome, const std::string& sample_id) {
  return read_stored(outcome, sample_id, "pipeline", [&] {
    using quality::PipelineExecutionStatus;
    quality::PipelineExecution execution;
    execution.status = named(outcome.at("status").get<std::string>(),
                             {PipelineExecutionStatus::ok, PipelineExecutionStatus::crash, PipelineExecutionStatus::no_fit,
                              PipelineExecutionStatus::untraced, PipelineExecutionStatus::timeout,
                              PipelineExecutionStatus::memory, PipelineExecutionStatus::cpu_time,
                              PipelineExecutionStatus::no_result},
                             "status");
    if (const auto& features = outcome.at("features"); !features.is_null())
      execution.features = features.get<std::vector<std::string>>();
    execution.derived = outcome.at("derived").get<std::vector<std::string>>();
    execution.basis = outcome.at("basis").get<std::string>();
    execution.estimator = outcome.at("estimator").get<std::string>();
    execution.error_type = outcome.at("error_type").get<std::string>();
    execution.error = outcome.at("error").get<std::string>();
    execution.isolation = outcome.at("isolation").get<std::string>();
    execution.sandbox = outcome.at("sandbox").get<std::string>();
    execution.wall_seconds = outcome.at("wall_seconds").get<double>();
    return execution;
  });
}

}  // namespace codebias::tasks
