#include "reports/html_report_assets.h"

namespace codebias::reports {

std::string_view html_report_css() {
  return R"css(
:root{--fg:#222;--muted:#666;--line:#ddd;--accent:#c0392b;--bg:#fff;--code:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:16px 24px;border-bottom:1px solid var(--line)}
header h1{margin:0;font-size:22px}
.sub{margin:4px 0 0;color:var(--muted)}
.banner{margin-top:10px;padding:10px 14px;background:#fff4e5;border:2px solid #e67e22;border-radius:6px}
main{padding:8px 24px 40px;max-width:1400px}
h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
thead th{background:#f3f3f3}
td.num{text-align:right}
table.kv td code{white-space:pre-wrap;word-break:break-all}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:120px}
.card .value{font-size:22px;font-weight:600}
.card .label{color:var(--muted)}
.note{color:var(--muted);font-size:12px}
.heatmaps{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
table.heat td{text-align:center;min-width:64px}
table.heat caption,table.finding caption{font-weight:600;text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:20px}
figure.chart{margin:0;width:560px}
figure.chart.wide{width:100%}
figure.chart figcaption{font-weight:600;margin-bottom:4px}
.canvas-box{position:relative;height:300px}
figure.chart.empty{width:auto;max-width:560px}
.heat-box{max-height:520px;overflow:auto;border:1px solid var(--line);width:max-content;max-width:100%}
.heat-box table.heat{margin:0}
.heat-box thead th{position:sticky;top:0}
details.long-table{margin:8px 0}
details.long-table summary{cursor:pointer}
details.sample{border:1px solid var(--line);border-radius:4px;margin:4px 0;padding:2px 8px}
details.sample summary{cursor:pointer}
details.sample .why{color:var(--accent)}
.sample-body h4{margin:10px 0 4px}
pre{background:var(--code);padding:8px;overflow:auto;font-size:12px;line-height:1.4}
pre.prompt{white-space:pre-wrap;max-height:260px}
pre.code{counter-reset:line}
pre.code .ln{display:block;counter-increment:line;white-space:pre}
pre.code .ln::before{content:counter(line);display:inline-block;width:3em;color:#999;text-align:right;margin-right:1em}
pre.code .ln.hit{background:#fde2df;border-left:3px solid var(--accent)}
ul.evidence{margin:4px 0;padding-left:20px}
.rule{color:var(--muted)}
)css";
}

std::string_view html_report_error_capture_js() {
  return R"js(
window.codebiasErrors = [];
window.addEventListener('error', function (e) {
  window.codebiasErrors.push('error: ' + e.message + ' (' + e.filename + ':' + e.lineno + ')');
});
window.addEventListener('unhandledrejection', function (e) {
  window.codebiasErrors.push('unhandled rejection: ' + String(e.reason));
});
(function () {
  var original = console.error;
  console.error = function () {
    window.codebiasErrors.push('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
    return original.apply(console, arguments);
  };
})();
)js";
}

std::string_view html_report_page_js() {
  return R"js(
(function () {
  'use strict';
  var palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
                 '#9c755f', '#bab0ac'];
  var data = JSON.parse(document.getElementById('codebias-data').textContent);

  // Below this height (CSS pixels) a plot is too flat to read; long rotated labels take their
  // room from the plot, so the chart's box grows instead.
  var minPlotHeight = 180;

  function draw(canvas) {
    var spec = data.charts[Number(canvas.getAttribute('data-chart'))];
    var y = {beginAtZero: true, title: {display: true, text: spec.y_title}};
    if (spec.y_max !== null) y.max = spec.y_max;
    var chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: spec.labels,
        datasets: spec.datasets.map(function (d, i) {
          return {label: d.label, data: d.data, backgroundColor: palette[i % palette.length]};
        })
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {legend: {position: 'bottom'}},
        scales: {y: y, x: {ticks: {autoSkip: false, maxRotation: 60}}}
      }
    });
    var missing = minPlotHeight - (chart.chartArea.bottom - chart.chartArea.top);
    if (missing > 0) {
      canvas.parentNode.style.height = (canvas.parentNode.clientHeight + missing) + 'px';
      chart.resize();
    }
  }

  // The layout rule for a category axis: adjacent labels do not overlap when, unrotated, the
  // widest fits the space per category, or, rotated by r, that space times sin(r) holds a line.
  function layout(canvas) {
    var chart = Chart.getChart(canvas);
    if (!chart) return {id: canvas.id, drawn: false};
    var x = chart.scales.x;
    var size = (x.options.ticks.font && x.options.ticks.font.size) || Chart.defaults.font.size;
    var context = canvas.getContext('2d');
    context.save();
    context.font = size + 'px ' + Chart.defaults.font.family;
    var widest = 0;
    x.ticks.forEach(function (tick) { widest = Math.max(widest, context.measureText(String(tick.label)).width); });
    context.restore();
    var space = x.width / Math.max(x.ticks.length, 1);
    var rotation = x.labelRotation * Math.PI / 180;
    var overlap = rotation > 0.01 ? space * Math.sin(rotation) < size : widest > space;
    return {id: canvas.id, drawn: true, labels: x.ticks.length, plot_height: Math.round(chart.chartArea.bottom -
            chart.chartArea.top), space_per_label: Math.round(space), rotation: Math.round(x.labelRotation),
            labels_overlap: overlap};
  }

  // Counts painted pixels: a chart that failed to draw leaves its canvas fully transparent.
  function paintedPixels(canvas) {
    var context = canvas.getContext('2d');
    if (!canvas.width || !canvas.height) return 0;
    var pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    var painted = 0;
    for (var i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) ++painted;
    return painted;
  }

  function selftest() {
    var verdict = {errors: window.codebiasErrors, canvases: [], details: 0, drilldown_expands: false};
    document.querySelectorAll('canvas').forEach(function (canvas) {
      var entry = layout(canvas);
      entry.nonblank = paintedPixels(canvas);
      verdict.canvases.push(entry);
    });
    verdict.heatmap_charts = document.querySelectorAll('figure.chart-heatmap').length;
    verdict.empty_chart_notes = document.querySelectorAll('figure.chart.empty').length;
    verdict.collapsed_tables = document.querySelectorAll('details.long-table').length;
    var details = document.querySelectorAll('details.sample');
    verdict.details = details.length;
    if (details.length) {
      // Chromium lays out a closed <details>'s content (content-visibility), so the test is that
      // the box grows and its content is then visible.
      var body = details[0].querySelector('.sample-body');
      var closedHeight = details[0].offsetHeight;
      details[0].open = true;
      verdict.drilldown_expands = details[0].offsetHeight > closedHeight && body.offsetHeight > 0 &&
                                  body.getClientRects().length > 0;
    }
    document.getElementById('selftest').textContent = JSON.stringify(verdict);
  }

  try {
    if (typeof Chart === 'undefined') throw new Error('Chart.js did not load');
    document.querySelectorAll('canvas[data-chart]').forEach(draw);
  } catch (e) {
    window.codebiasErrors.push('report script: ' + e.message);
  }
  if (location.hash === '#selftest') window.addEventListener('load', function () { setTimeout(selftest, 0); });
})();
)js";
}

}  // namespace codebias::reports
