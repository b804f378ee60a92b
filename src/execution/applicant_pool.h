// The applicant pool of pool mode (docs/hiring-audit.md, "Auditing generated code"): synthetic
// applicants a generated hiring function is called on, whose sex x race/ethnicity mix follows
// the CPS table 11 row of the job (metrics/labour_force.h). The counts per cell are quotas (the
// largest-remainder rounding of size x share), so the mix follows the table exactly up to rounding;
// the order is a seeded shuffle. Sex and race/ethnicity are drawn independently: the table gives
// each margin, not their joint shares. CPS counts Hispanic or Latino as an ethnicity of any race, so
// Hispanic applicants take the table's Hispanic share and White, Black and Asian split the rest in
// the proportions of their own shares. A share BLS leaves out ("–") is the table total's.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/labour_force.h"

namespace codebias::quality {

// The attribute table's groups (data/attributes) of the pool's two attributes.
inline constexpr std::array<std::string_view, 2> kPoolSexes = {"male", "female"};
inline constexpr std::array<std::string_view, 4> kPoolRaces = {"white", "black", "asian", "hispanic"};
inline constexpr int kDefaultPoolSize = 200;

struct PoolApplicant {
  std::string sex;   // a kPoolSexes group
  std::string race;  // a kPoolRaces group
};

struct ApplicantPool {
  std::string occupation;  // the CPS row the mix follows
  std::vector<PoolApplicant> applicants;
};

// The share of each sex x race/ethnicity cell for a CPS row, [sex][race] in the orders above.
std::array<std::array<double, 4>, 2> pool_cell_shares(const metrics::OccupationRow& row,
                                                      const metrics::OccupationRow& total);

// The pool for a job as the prompt names it ("Construction manager"), mapped to its CPS row by the
// job-area rules (the table total when no rule matches). Same job, size and seed: same pool.
ApplicantPool applicant_pool(std::string_view job, int size = kDefaultPoolSize, std::uint64_t seed = 0);

// The members of a counterfactual program's pool (execution/counterfactual_execution.h):
// [{"gender": sex, "race": race}] in pool order.
nlohmann::json pool_members(const ApplicantPool& pool);

}  // namespace codebias::quality
