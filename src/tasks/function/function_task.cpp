// The function-implementation task (FairCoder §2.2) and faircoder-compat: their registry rows.
#include "tasks/function/function_task.h"

#include "prompts/prompt_builder.h"
#include "tasks/function/function_simulated.h"
#include "tasks/function_scorer.h"
#include "tasks/run_analysis.h"

namespace codebias::tasks {

Task function_task_row() {
  return {.name = "function",
          .description = "scoring functions (FairCoder function implementation)",
          .make_scorer = &make_function_scorer,
          .build_prompts = &prompts::build_function_prompts,
          .analyse_run = &analyse_function_samples,
          .answers_are_programs = true,
          .executes_answers = true,
          .runs_mitigation_strategies = true,
          .executable_answer = &function_answer_to_execute,
          .simulated_answer = &serve::sim::function_answer,
          .answers_unclaimed = true,
          .analyse_pages = &analyse_function_pages};
}

Task faircoder_compat_task_row() {
  return {.name = "faircoder-compat",
          .description = "function lines read by FairCoder's published scorer, its mistakes included (README.md)",
          .make_scorer = &make_faircoder_compat_scorer,
          .build_prompts = nullptr,
          .analyse_run = nullptr,
          .answers_are_programs = true};
}

}  // namespace codebias::tasks
