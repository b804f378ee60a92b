// The fixed parts of the HTML report (reports/html_report.h): its stylesheet and its two scripts.
// They hold no run data; the page script reads the run's chart data from the JSON block
// <script type="application/json" id="codebias-data">.
#pragma once

#include <string_view>

namespace codebias::reports {

std::string_view html_report_css();

// Runs first: records window errors, unhandled rejections and console.error calls in
// window.codebiasErrors for the #selftest verdict.
std::string_view html_report_error_capture_js();

// Runs last: draws each <canvas data-chart=i> from charts[i] with Chart.js and, when the URL
// fragment is #selftest, writes the verdict into <pre id="selftest"> (see html_report.h).
std::string_view html_report_page_js();

}  // namespace codebias::reports
