// Moving a run's samples through batch engines: the pending requests of a run written as an
// OpenAI Batch input file, and the engine's output file read back into the run. One file works
// with OpenAI's Batch API (/v1/files + /v1/batches) and with vLLM's offline runner
// (`vllm run-batch -i requests.jsonl -o results.jsonl --model M`); docs/store.md shows the
// round trip. vLLM's runner serves /v1/chat/completions only; OpenAI's also /v1/completions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "store/run_store.h"

namespace codebias::run {

// OpenAI accepts at most this many requests in one batch file (vLLM has no limit).
inline constexpr std::size_t kOpenAiBatchMaxRequests = 50'000;

// Writes one line per sample still to run (plan order; failed ones too when include_errors):
//   {"custom_id": <sample id>, "method": "POST", "url": <api_path>, "body": <request body>}
// At most max_requests lines when it is not 0. Returns the number of lines written.
std::size_t export_batch(const store::RunStore& run, std::ostream& out, bool include_errors,
                         std::size_t max_requests = 0);

struct ImportStats {
  std::int64_t lines = 0;         // non-blank lines read
  std::int64_t done = 0;          // samples stored as done
  std::int64_t errors = 0;        // samples stored as failed (the engine's error for that request)
  std::int64_t already_done = 0;  // lines for samples already done: skipped, never rewritten
  // Lines that were not imported, each "origin:line: field: what is wrong" (malformed JSON, no
  // custom_id, an id that is not a sample of this run, a repeat of a failed sample's id within
  // the file, ...).
  std::vector<std::string> problems;
};

// Reads OpenAI Batch output or error lines, or vLLM run-batch output lines,
//   {"id": ..., "custom_id": ..., "response": {"status_code", "request_id", "body"} | null,
//    "error": null | {"code", "message"} | "message" (vLLM) | {"error": {...}} (vLLM)}
// and records each as its sample's result: done for a 2xx chat or text completion, error with a
// kind (auth, context_length, bad_request, rate_limit, server, timeout, cancelled,
// invalid_response) otherwise. A bad line is listed in problems and the import goes on. Each
// sample is committed as it is read, so an interrupted import can simply be run again.
ImportStats import_batch_results(store::RunStore& run, std::istream& in, std::string_view origin);

// `codebias batch export|import` on a run directory (store::StoreError when it holds no run).
// export_batch_file writes as export_batch does. import_batch_files imports each file in turn,
// calling on_file with its stats; a file that cannot be read throws std::invalid_argument (the
// files before it stay imported). Returns the run's counts after the import.
std::size_t export_batch_file(const std::filesystem::path& run_dir, std::ostream& out, bool include_errors,
                              std::size_t max_requests);
store::RunStore::Counts import_batch_files(
    const std::filesystem::path& run_dir, const std::vector<std::string>& files,
    const std::function<void(const std::string& file, const ImportStats& stats)>& on_file);

}  // namespace codebias::run
