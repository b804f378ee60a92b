// `codebias detect` on the JSONL engine (base/jsonl_engine.h): input lines read on the worker
// pool, each batch scored with Detector::detect_all (so engine-backed detectors can send a batch's
// requests together), output lines in input order.
#pragma once

#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "attributes/attributes.h"
#include "base/jsonl_engine.h"
#include "detectors/detector.h"

namespace codebias::detectors {

// Calls `sink` with each output line (verdict_json, or with keep_going an error line), in input
// order. Throws base::InputError at the first bad line without keep_going.
base::JsonlStats detect_jsonl(std::istream& in, std::string_view origin, const Detector& detector,
                              const analysis::AttributeTable& table, const base::JsonlOptions& options,
                              const std::function<void(const std::string& line)>& sink);

}  // namespace codebias::detectors
