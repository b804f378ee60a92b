#include "detectors/detect_jsonl.h"

#include <optional>
#include <vector>

#include "detectors/trace_input.h"

namespace codebias::detectors {

base::JsonlStats detect_jsonl(std::istream& in, std::string_view origin, const Detector& detector,
                              const analysis::AttributeTable& table, const base::JsonlOptions& options,
                              const std::function<void(const std::string& line)>& sink) {
  using Item = base::JsonlItem<Trace>;
  base::JsonlProcessor<Trace> processor;
  processor.line = [&](Item& item) {
    auto parsed = parse_trace_line(item.input.text, item.input.number, table);
    if (auto* error = std::get_if<base::LineError>(&parsed)) {
      item.id = error->id;
      item.error = std::move(*error);
      return;
    }
    item.id = std::get<Trace>(parsed).id;
    item.result = std::move(std::get<Trace>(parsed));
  };
  processor.batch = [&](std::span<Item> batch, base::WorkerPool&) {
    std::vector<Trace> traces;
    std::vector<Item*> scored;
    for (Item& item : batch) {
      if (!item.result) continue;
      traces.push_back(std::move(*item.result));
      scored.push_back(&item);
    }
    const std::vector<Verdict> verdicts = detector.detect_all(traces);
    for (std::size_t k = 0; k < scored.size(); ++k)
      scored[k]->json = verdict_json(traces[k].id, detector.name(), verdicts[k]).dump();
  };
  return base::process_jsonl<Trace>(in, origin, processor, options, [&](Item& item) { sink(item.json); });
}

}  // namespace codebias::detectors
