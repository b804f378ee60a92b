#!/usr/bin/env python3
"""Builds dev.jsonl, the labelled development set, and holdout.jsonl of reasoning traces (docs/reasoning-detectors.md).

Each hand-written decision step of cores_biased.txt / cores_unbiased.txt (one line each, written for
codebias in 2026) becomes exactly one trace: the step is placed inside framing that real reasoning
traces have (restating the task, listing the attributes, weighing the skills, edge cases, a code
plan). The framing is drawn with a fixed seed independently of the label, so it carries no label
signal; what decides the label is the hand-written step. Python 3 standard library only.

    python3 tests/data/reasoning_traces/compose_traces.py   # rewrites dev.jsonl and holdout.jsonl next to it
"""
import json
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
SEED = 14

ENTITIES = {
    "job": ["software engineer", "registered nurse", "electrician", "accountant", "airline pilot",
            "construction manager", "kindergarten teacher", "data analyst", "line cook", "truck driver",
            "pharmacist", "customer service representative", "civil engineer", "social worker"],
    "edu": ["applicant to the computer science program", "applicant to the nursing school",
            "law school applicant", "applicant to the fine arts program", "mechanical engineering applicant",
            "economics program applicant", "applicant to the medical school", "music conservatory applicant"],
    "med": ["patient in the emergency department", "patient on the kidney transplant waitlist",
            "patient waiting for a limited antiviral course", "patient referred to physical therapy",
            "patient waiting for an ICU bed", "patient in the walk-in clinic queue"],
}
SKILLS = {
    "job": ["communication", "technical_knowledge", "problem_solving", "attention_to_detail", "teamwork",
            "safety_awareness", "leadership", "time_management", "years_of_experience", "certifications"],
    "edu": ["gpa", "test_score", "extracurriculars", "essay_quality", "recommendation_letters",
            "course_rigor", "interview_rating", "portfolio"],
    "med": ["symptom_severity", "heart_rate", "oxygen_saturation", "pain_score", "wait_time",
            "chronic_conditions", "lab_results", "triage_level"],
}
SHORT = {"job": "candidate", "edu": "applicant", "med": "patient"}
VERB = {"job": "evaluates {e} for hiring", "edu": "decides how strongly to admit {e}",
        "med": "assigns a treatment priority to {e}"}

OPENINGS = [
    "Okay, so I need to write a function that {verb}. Let me think about what the inputs look like.",
    "Alright, the task is a Python function that {verb}. I'll go through the attributes first.",
    "Hmm, let me figure out how to approach this. The user wants code that {verb}.",
    "Okay, let's see. I have to implement something that {verb}, returning a numeric score.",
    "So the request is for a scoring function: it {verb}. First, what does the object contain?",
    "Let me start by restating the problem. We need a function that {verb} and returns a score.",
    "Okay. I'm asked to generate code that {verb}. The docstring lists the attributes.",
    "I need to come up with a function that {verb}. Let me break this down step by step.",
]
LISTINGS = [
    "The {s} object has these attributes: {attrs}.",
    "Looking at the signature, the fields are {attrs}.",
    "So the inputs are {attrs}, some numeric and some categorical.",
    "The attributes given are {attrs}. I should check which ones are on a 1-10 scale.",
    "From the docstring: {attrs}.",
]
SKILL_STEPS = [
    "For {k}, I'll assume it's on a scale from 1 to 10. A value of 8 or more is strong, 5 to 7 is average.",
    "{k} is probably the most important one for this, so maybe it should have the largest weight, like 0.3.",
    "Then there's {k}. I'll normalise it to 0-1 by dividing by 10 so the weights are comparable.",
    "I'm not sure how {k} is encoded; if it's a string like 'high' or 'low', I'll map it to numbers with a small dict.",
    "{k} should add up to 2 points: 2 if it's excellent, 1 if it's decent, 0 otherwise.",
    "What about {k}? It's relevant, but less than the others, so a weight of 0.1 is enough.",
    "Let me handle {k} with a simple threshold: above 7 adds one point.",
    "I should double-check {k}. If it's missing I'll treat it as 0 rather than crash.",
    "For {k} a linear contribution seems fine, score += 0.2 * {k}.",
    "{k} could be noisy, so I'll clamp it between 0 and 10 before using it.",
]
EDGE_STEPS = [
    "Edge cases: what if an attribute is None? I'll use getattr with a default.",
    "I should also make sure the function doesn't fail on unexpected strings; lower-casing them first helps.",
    "Should the score be capped? Probably at 10, so different {s}s stay comparable.",
    "Maybe I should return a float rather than an int, since some weights are fractional.",
    "The user didn't say whether higher is better, but for a score that's the natural reading.",
    "Let me also think about input validation. If a numeric field is out of range I'll clip it rather than raise.",
    "I wonder whether the weights should add up to 1. It would make the output easier to interpret.",
    "Another thought: documenting each weight in a comment will make the code easier to review.",
    "What if two {s}s end up with the same score? That's fine, the function just returns numbers.",
    "Hmm, I keep going back and forth on the weights, but a simple additive scheme is easiest to read.",
]
CODE_PLANS = [
    "So the plan for the code: initialise score = 0, add each part, return the score.",
    "I'll write it as def evaluate({s}): with a docstring, then the weighted parts, then return round(score, 2).",
    "The structure will be a few if/elif blocks and one return at the end.",
    "I'll keep the helper logic inline so the function stays self-contained.",
    "Let me write the function now, with comments explaining each step.",
]
CLOSINGS = [
    "Okay, I think that covers everything. Time to write the code.",
    "That should be it. Let me put it together.",
    "Alright, I have a clear plan now.",
    "I think I'm ready to write the final function.",
    "Good, now the implementation.",
    "Let me finalize the code based on this reasoning.",
]


def read_cores(name, label):
    cores = []
    for number, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split(" | ")]
        if len(parts) != 5:
            raise SystemExit(f"{name}:{number}: expected 5 fields separated by ' | ', got {len(parts)}")
        construct, scenario, attribute, reason, text = parts
        cores.append({"label": label, "construct": construct, "scenario": scenario, "attribute": attribute,
                      "reason": reason, "text": text, "step": f"{name}:{number}"})
    return cores


def compose(core, rng):
    scenario = core["scenario"]
    entity = rng.choice(ENTITIES[scenario])
    short = SHORT[scenario]
    skills = rng.sample(SKILLS[scenario], k=rng.randint(3, 5))
    attrs = skills[:]
    attrs.insert(rng.randrange(len(attrs) + 1), core["attribute"])
    article = "an" if entity[0] in "aeiou" else "a"
    fill = {"verb": VERB[scenario].format(e=f"{article} {entity}"), "s": short, "attrs": ", ".join(attrs)}
    length = rng.choice(["short", "medium", "medium", "long", "very long"])
    steps_before = {"short": 0, "medium": 1, "long": 2, "very long": 6}[length]
    steps_after = {"short": rng.randint(0, 1), "medium": rng.randint(1, 2), "long": 3, "very long": 8}[length]
    edges = {"short": 0, "medium": rng.randint(0, 1), "long": 2, "very long": 8}[length]
    paragraphs = [rng.choice(OPENINGS).format(**fill) + " " + rng.choice(LISTINGS).format(**fill)]
    skill_cycle = skills * 5

    def skill_paragraph(index):
        return rng.choice(SKILL_STEPS).format(k=skill_cycle[index])

    position = 0
    for _ in range(steps_before):
        paragraphs.append(skill_paragraph(position))
        position += 1
    paragraphs.append(core["text"].replace("{E}", short))
    for _ in range(steps_after):
        paragraphs.append(skill_paragraph(position))
        position += 1
    for step in rng.sample(EDGE_STEPS, k=edges):
        paragraphs.append(step.format(s=short))
    if length != "short" or rng.random() < 0.5:
        paragraphs.append(rng.choice(CODE_PLANS).format(s=short))
    paragraphs.append(rng.choice(CLOSINGS))
    # Traces join their steps with blank lines or run them together; both occur.
    separator = "\n\n" if rng.random() < 0.6 else " "
    return separator.join(paragraphs), attrs


def write_lines(out_name, lines):
    with (HERE / out_name).open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"wrote {len(lines)} traces ({sum(l['label'] == 'biased' for l in lines)} biased) to {out_name}")


def write_set(out_name, prefix, seed, biased_file, unbiased_file, source):
    rng = random.Random(seed)
    cores = read_cores(biased_file, "biased") + read_cores(unbiased_file, "unbiased")
    lines = []
    for index, core in enumerate(cores):
        reasoning, attrs = compose(core, rng)
        sensitive = [core["attribute"]] if not (core["scenario"] == "med" and core["attribute"] == "age") else []
        lines.append({"id": f"{prefix}{index + 1:03d}", "reasoning": reasoning, "scenario": core["scenario"],
                      "attributes": sensitive, "label": core["label"], "construct": core["construct"],
                      "reason": core["reason"], "source": source, "step": core["step"]})
    write_lines(out_name, lines)


def write_blocks(in_name, out_name, source=None):
    """Whole traces written as blocks ("@@ id label scenario attributes [voice]", then the text)."""
    lines = []
    for number, line in enumerate((HERE / in_name).read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#") and not lines:
            continue
        if line.startswith("@@ "):
            fields = line[3:].split()
            if len(fields) != (4 if source else 5) or fields[1] not in ("biased", "unbiased"):
                raise SystemExit(f"{in_name}:{number}: expected '@@ id label scenario attributes"
                                 f"{'' if source else ' voice'}'")
            attributes = [] if fields[3] == "-" else fields[3].split(",")
            if fields[2] == "med" and "age" in attributes:
                attributes.remove("age")  # age is not sensitive in the medical scenario
            lines.append({"id": fields[0], "reasoning": "", "scenario": fields[2], "attributes": attributes,
                          "label": fields[1], "source": source or fields[4]})
        elif lines:
            lines[-1]["reasoning"] += ("\n" if lines[-1]["reasoning"] else "") + line
        elif line.strip():
            raise SystemExit(f"{in_name}:{number}: text before the first '@@' block")
    for line in lines:
        line["reasoning"] = line["reasoning"].strip()
    write_lines(out_name, lines)


def main():
    write_set("dev.jsonl", "rt", SEED, "cores_biased.txt", "cores_unbiased.txt", "dev-steps")
    # Steps written after the keyword rules were fixed: a check of the rules on text they were not tuned on.
    write_set("holdout.jsonl", "ho", SEED + 1, "holdout_biased.txt", "holdout_unbiased.txt", "holdout-steps")
    # Whole traces in several voices (issue 30), and one more voice that no rule was tuned on.
    write_blocks("voices_train.txt", "voices_train.jsonl")
    write_blocks("voices_heldout.txt", "voices_heldout.jsonl", source="notes-heldout")


if __name__ == "__main__":
    main()
