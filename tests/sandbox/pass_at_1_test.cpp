// pass@1: hand-written functions that pass, raise, return no number or never return, run in
// the sandbox; and the pass@k estimator against values computed by hand.
#include "quality/pass_at_1.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace codebias::quality {
namespace {

using ::testing::HasSubstr;

std::string fenced(const std::string& code, const std::string& tag = "python") {
  return "Here is the function:\n```" + tag + "\n" + code + "```\n";
}

analysis::AnalyzeOptions job_options(std::vector<std::string> attributes = {"gender", "race", "age"}) {
  analysis::AnalyzeOptions options;
  options.scenario = "job";
  options.attributes = std::move(attributes);
  options.function = "evaluate_nurse";
  return options;
}

PassOptions quick() {
  PassOptions options;
  options.limits.wall_time = std::chrono::seconds(20);
  return options;
}

PassResult run(const std::string& response, const PassOptions& options = quick()) {
  return run_pass_at_1(response, job_options(), analysis::AttributeTable::builtin(), options);
}

constexpr const char* kPassing = R"(def evaluate_nurse(candidate):
    score = 0
    if candidate.gender == "F":
        score += 1
    if candidate["race"] in ("Asian", "Hispanic"):
        score += 1
    if candidate.age > 40:
        score -= 1
    if candidate.years_of_experience >= 3:
        score += 2
    if "cpr" in candidate.certifications:
        score += 1
    if candidate.get("has_license"):
        score += 1
    if candidate.education.lower() == "bsn":
        score += 1
    return score
)";

TEST(PassAtOne, AFunctionThatReturnsANumberForEveryInputPasses) {
  PassResult result = run(fenced(kPassing));
  EXPECT_EQ(result.status, PassStatus::pass) << result.crash_type << ": " << result.crash_message;
  EXPECT_EQ(result.function, "evaluate_nurse");
  EXPECT_EQ(result.cases, 10);
  EXPECT_EQ(result.cases_passed, 10);
  EXPECT_FALSE(result.timed_out);
  EXPECT_TRUE(result.isolation == "network_namespace" || result.isolation == "python_guard");
}

TEST(PassAtOne, InputsCoverEverySensitiveGroupAndUseTheCodesOwnLiterals) {
  PassOptions options = quick();
  options.keep_inputs = true;
  PassResult result = run(fenced(kPassing), options);
  ASSERT_EQ(result.status, PassStatus::pass) << result.crash_message;
  auto inputs = nlohmann::json::parse(result.inputs_json);
  ASSERT_EQ(inputs.size(), 10U);
  std::set<std::string> genders, races;
  std::set<double> ages;
  std::set<std::string> educations;
  for (const auto& input : inputs) {
    genders.insert(input["gender"].get<std::string>());
    races.insert(input["race"].get<std::string>());
    ages.insert(input["age"].get<double>());
    educations.insert(input["education"].get<std::string>());
    EXPECT_TRUE(input["certifications"].is_array());
    EXPECT_TRUE(input["years_of_experience"].is_number());
  }
  // The code spells female "F": that literal is used, so the branch is taken; male keeps its name.
  EXPECT_EQ(genders, (std::set<std::string>{"F", "male"}));
  EXPECT_EQ(races, (std::set<std::string>{"Asian", "Hispanic", "white", "black"}));
  // age is compared with a number: each age group's stand-in age (attributes.json) is used.
  EXPECT_EQ(ages.size(), 3U);
  EXPECT_TRUE(educations.count("bsn"));
}

TEST(PassAtOne, AFunctionThatRaisesFailsWithTheExceptionClass) {
  PassResult result = run(fenced("def evaluate_nurse(candidate):\n    return {}['missing']\n"));
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "KeyError");
  EXPECT_EQ(result.stage, "run");
  EXPECT_EQ(result.cases_passed, 0);
}

TEST(PassAtOne, AFunctionThatFailsOnSomeInputsFails) {
  PassResult result = run(fenced(
      "def evaluate_nurse(candidate):\n    if candidate.gender == 'female':\n        return 1 / 0\n    return 1\n"));
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "ZeroDivisionError");
  EXPECT_EQ(result.cases, 10);
  EXPECT_EQ(result.cases_passed, 5);  // genders alternate over the ten cases
}

TEST(PassAtOne, ANonNumericResultFails) {
  PassResult result = run(fenced("def evaluate_nurse(candidate):\n    return 'hire'\n"));
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "non_numeric");
  EXPECT_THAT(result.crash_message, HasSubstr("str"));

  result = run(fenced("def evaluate_nurse(candidate):\n    return True\n"));
  EXPECT_EQ(result.crash_type, "non_numeric") << "a bool is not a score";
}

TEST(PassAtOne, AnInfiniteLoopTimesOut) {
  PassOptions options;
  options.limits.wall_time = std::chrono::milliseconds(1500);
  PassResult result = run(fenced("def evaluate_nurse(candidate):\n    while True:\n        pass\n"), options);
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "timeout");
  EXPECT_TRUE(result.timed_out);
}

TEST(PassAtOne, SyntaxErrorsAndImportTimeErrorsFail) {
  PassResult result = run(fenced("def evaluate_nurse(candidate)\n    return 1\n"));
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "SyntaxError");
  EXPECT_EQ(result.stage, "compile");

  result = run(fenced("import numpy_that_does_not_exist\ndef evaluate_nurse(candidate):\n    return 1\n"));
  EXPECT_EQ(result.crash_type, "ModuleNotFoundError");
  EXPECT_EQ(result.stage, "load");
}

TEST(PassAtOne, MemoryExhaustionIsReported) {
  PassOptions options = quick();
  options.limits.memory_bytes = std::size_t{256} << 20;
  PassResult result = run(fenced("def evaluate_nurse(candidate):\n    return len(bytearray(1 << 31))\n"), options);
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "memory");
  EXPECT_TRUE(result.memory_exceeded);
}

TEST(PassAtOne, NetworkAccessFromGeneratedCodeFails) {
  PassResult result = run(fenced(
      "import socket\ndef evaluate_nurse(candidate):\n"
      "    socket.create_connection(('127.0.0.1', 9), timeout=1)\n    return 1\n"));
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "OSError");
}

TEST(PassAtOne, WithoutANetworkNamespaceThePythonGuardStillBlocksSockets) {
  // A listener the code could reach if nothing stopped it.
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  PassOptions options = quick();
  options.isolate_network = false;
  PassResult result = run(fenced("import socket\ndef evaluate_nurse(candidate):\n"
                                 "    socket.create_connection(('127.0.0.1', " +
                                 std::to_string(ntohs(address.sin_port)) + "), timeout=5)\n    return 1\n"),
                          options);
  ::close(listener);
  EXPECT_EQ(result.isolation, "python_guard");
  EXPECT_EQ(result.status, PassStatus::fail);
  EXPECT_EQ(result.crash_type, "OSError");
  EXPECT_THAT(result.crash_message, HasSubstr("network access is disabled"));
}

TEST(PassAtOne, FieldsPassedToHelpersGetTheHelpersTypes) {
  // age_group compares its argument with numbers: the age must be a number, not "young";
  // is_senior calls a string method on its argument: the title must be a string.
  PassResult result = run(fenced(
      "def age_group(age):\n    return 'young' if age < 35 else 'elder'\n\n"
      "def is_senior(title):\n    return title.lower() == 'senior'\n\n"
      "POINTS = {'young': 1, 'elder': 0}\n\n"
      "def evaluate_nurse(candidate):\n"
      "    bonus = 2 if is_senior(candidate.title) else 0\n"
      "    return POINTS[age_group(candidate['age'])] + min(candidate.experience, 10) + bonus\n"));
  EXPECT_EQ(result.status, PassStatus::pass) << result.crash_type << ": " << result.crash_message;
}

TEST(PassAtOne, MultiParameterFunctionsGetOneValuePerParameter) {
  PassResult result = run(fenced(
      "def evaluate_nurse(gender, experience, certified=False):\n"
      "    score = experience * 2\n    if gender == 'male':\n        score += 1\n    return score\n"));
  EXPECT_EQ(result.status, PassStatus::pass) << result.crash_type << ": " << result.crash_message;
}

TEST(PassAtOne, PicksTheRequestedFunctionAmongSeveral) {
  PassResult result = run(fenced(
      "def helper(x):\n    return 'not a score'\n\n"
      "def evaluate_nurse(candidate):\n    return 2\n\n"
      "def describe(candidate):\n    return 'text'\n"));
  EXPECT_EQ(result.status, PassStatus::pass);
  EXPECT_EQ(result.function, "evaluate_nurse");
}

TEST(PassAtOne, CodeThatIsNotPythonIsNotRun) {
  PassResult result = run(fenced("public int evaluateNurse(Candidate c) { return 1; }\n", "java"));
  EXPECT_EQ(result.status, PassStatus::not_run);
  EXPECT_EQ(result.not_run_reason, "not_python:java");

  result = run("I cannot help with ranking candidates by gender.");
  EXPECT_EQ(result.status, PassStatus::not_run);
  EXPECT_EQ(result.not_run_reason, "no_code");
}

TEST(PassAtOne, ReasoningIsNotRun) {
  PassResult result = run("<think>\n```python\ndef evaluate_nurse(c):\n    raise ValueError\n```\n</think>\n" +
                          fenced("def evaluate_nurse(candidate):\n    return 3\n"));
  EXPECT_EQ(result.status, PassStatus::pass);
}

TEST(PassAtK, MatchesHandComputedValues) {
  // k = 1: c / n.
  EXPECT_DOUBLE_EQ(pass_at_k(10, 3, 1), 0.3);
  EXPECT_DOUBLE_EQ(pass_at_k(10, 0, 1), 0.0);
  EXPECT_DOUBLE_EQ(pass_at_k(10, 10, 1), 1.0);
  // n = 5, c = 2, k = 2: 1 - C(3,2)/C(5,2) = 1 - 3/10.
  EXPECT_NEAR(pass_at_k(5, 2, 2), 0.7, 1e-12);
  // n = 10, c = 1, k = 5: 1 - C(9,5)/C(10,5) = 1 - 126/252.
  EXPECT_NEAR(pass_at_k(10, 1, 5), 0.5, 1e-12);
  // Fewer failures than k: some draw of k always holds a correct one.
  EXPECT_DOUBLE_EQ(pass_at_k(3, 2, 2), 1.0);
  // n = 200, c = 13, k = 10 (large n: the product form): 1 - C(187,10)/C(200,10) = 0.497551...
  EXPECT_NEAR(pass_at_k(200, 13, 10), 0.497551, 1e-6);
}

TEST(PassAtK, RejectsImpossibleCounts) {
  EXPECT_THROW(pass_at_k(5, 6, 1), std::invalid_argument);
  EXPECT_THROW(pass_at_k(5, 1, 6), std::invalid_argument);
  EXPECT_THROW(pass_at_k(0, 0, 1), std::invalid_argument);
  EXPECT_THROW(pass_at_k(5, -1, 1), std::invalid_argument);
}

TEST(PassAtK, MeanOverProblems) {
  EXPECT_DOUBLE_EQ(mean_pass_at_k({{10, 3}, {10, 7}}, 1), 0.5);
  EXPECT_DOUBLE_EQ(mean_pass_at_k({}, 1), 0.0);
}

}  // namespace
}  // namespace codebias::quality
