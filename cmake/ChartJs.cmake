# Chart.js, the chart library `codebias report --format html` inlines into its single-file
# report (so the report needs no network to view). Fetched from npm and pinned by SHA-256 like
# the tree-sitter packages (NpmPackage.cmake); only the UMD build and the licence are extracted.
#
# Sets CODEBIAS_CHARTJS_UMD to the path of dist/chart.umd.js (minified, defines window.Chart).
# To move to a newer release: change the version, `npm pack chart.js@VERSION`, put
# `sha256sum chart.js-VERSION.tgz` here.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/NpmPackage.cmake)

codebias_npm_package(chart.js 4.5.1
  f540d98468457ac7a0aabb32006dfb066297e096c5ea063a5d80aa973d1c337a _chartjs_dir
  PATTERNS package/dist/chart.umd.js package/LICENSE.md package/package.json)
set(CODEBIAS_CHARTJS_UMD "${_chartjs_dir}/dist/chart.umd.js")
