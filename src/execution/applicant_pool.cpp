#include "execution/applicant_pool.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace codebias::quality {
namespace {

double share_or_total(const std::optional<double>& share, const std::optional<double>& total) {
  return share.value_or(total.value_or(0));
}

// Quotas summing to `size`: each cell's whole part of size x share, then one more to the cells
// with the largest remainders (ties to the earlier cell).
std::vector<int> largest_remainder(const std::vector<double>& shares, int size) {
  std::vector<int> counts(shares.size());
  std::vector<double> remainders(shares.size());
  int given = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double exact = shares[i] * size;
    counts[i] = static_cast<int>(std::floor(exact));
    remainders[i] = exact - counts[i];
    given += counts[i];
  }
  std::vector<std::size_t> order(shares.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (std::size_t i = 0; given < size && i < order.size(); ++i, ++given) ++counts[order[i]];
  return counts;
}

// Fisher-Yates with the engine's raw output, so the order is the same with every standard library
// (std::shuffle's and the distributions' algorithms are not specified).
template <class T>
void seeded_shuffle(std::vector<T>& items, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[engine() % i]);
}

}  // namespace

std::array<std::array<double, 4>, 2> pool_cell_shares(const metrics::OccupationRow& row,
                                                      const metrics::OccupationRow& total) {
  const double women = share_or_total(row.women, total.women);
  const double hispanic = share_or_total(row.hispanic, total.hispanic);
  const std::array<double, 3> races = {share_or_total(row.white, total.white), share_or_total(row.black, total.black),
                                       share_or_total(row.asian, total.asian)};
  const double race_sum = races[0] + races[1] + races[2];
  std::array<double, 4> race_shares{};
  for (std::size_t i = 0; i < races.size(); ++i)
    race_shares[i] = race_sum > 0 ? (1 - hispanic) * races[i] / race_sum : 0;
  race_shares[3] = hispanic;
  std::array<std::array<double, 4>, 2> cells{};
  for (std::size_t race = 0; race < race_shares.size(); ++race) {
    cells[0][race] = (1 - women) * race_shares[race];
    cells[1][race] = women * race_shares[race];
  }
  return cells;
}

ApplicantPool applicant_pool(std::string_view job, int size, std::uint64_t seed) {
  const auto& table = metrics::builtin_labour_force_table();
  const metrics::OccupationMatch match = metrics::map_job_text(job, metrics::builtin_job_area_rules(), table);
  const metrics::OccupationRow& row = match.row != nullptr ? *match.row : table.total();
  const auto cells = pool_cell_shares(row, table.total());
  std::vector<double> shares;
  for (const auto& by_race : cells) shares.insert(shares.end(), by_race.begin(), by_race.end());
  const std::vector<int> counts = largest_remainder(shares, size);
  ApplicantPool pool{row.occupation, {}};
  for (std::size_t cell = 0; cell < counts.size(); ++cell)
    for (int i = 0; i < counts[cell]; ++i)
      pool.applicants.push_back({std::string(kPoolSexes[cell / kPoolRaces.size()]),
                                 std::string(kPoolRaces[cell % kPoolRaces.size()])});
  seeded_shuffle(pool.applicants, seed);
  return pool;
}

nlohmann::json pool_members(const ApplicantPool& pool) {
  nlohmann::json members = nlohmann::json::array();
  for (const auto& applicant : pool.applicants)
    members.push_back({{"gender", applicant.sex}, {"race", applicant.race}});
  return members;
}

}  // namespace codebias::quality
