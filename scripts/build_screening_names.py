#!/usr/bin/env python3
"""Converts the BAD paper's name sources into data/screening/names.json (docs/screening.md, "Names").

Reads, from the directory given (default /work/shared/data/bad_resume):
  firstnames_DERIVED.csv  Tzioumis (2018), "Demographic aspects of first names", Harvard Dataverse
                          (first names on mortgage applications, HMDA 2007-2010; shares in percent)
  surnames.csv            US Census Bureau, 2010 Census surnames (FiveThirtyEight's "Most Common
                          Names" uses them, as the paper cites; shares in percent, "(S)" suppressed)
  us-likelihood-of-gender-by-name-in-2014.csv
                          US gender likelihood by name in 2014 (from Social Security card
                          applications; one row per name: the more likely sex and its probability)
  names_used_DERIVED.csv  the paper's 48 names (first, last, ethnicity, gender)

Pre-filter (what the file keeps, so it stays small; selection in src/tasks/screening/screening_names.cpp
draws only from these):
  first names: a known gender likelihood, and a share >= 0.5 for one of White, Black, API,
               Hispanic; per group the 500 with the highest share for it (ties: more
               observations first), so the pools at high thresholds are kept whole.
  surnames:    at least 1000 people, and a share >= 0.5 for one group; per group the 500 with
               the highest share (ties: more people first). A suppressed share "(S)" counts as 0.
Shares are written as fractions in 0..1 with 4 decimals. Python standard library only.
"""

import argparse
import csv
import json
import pathlib

GROUPS = ["White", "Black", "API", "Hispanic"]
FIRST_COLUMNS = {"White": "pctwhite", "Black": "pctblack", "API": "pctapi", "Hispanic": "pcthispanic"}
SURNAME_COLUMNS = FIRST_COLUMNS
MIN_SHARE = 0.5
MIN_SURNAME_COUNT = 1000
PER_GROUP_CAP = 500

SOURCE = (
    "First names: Tzioumis, K. (2018), 'Demographic aspects of first names', Scientific Data 5:180025, "
    "Harvard Dataverse doi:10.7910/DVN/TYJKEZ (mortgage applications, HMDA 2007-2010), file firstnames.xlsx. "
    "Surnames: US Census Bureau, 'Frequently Occurring Surnames from the 2010 Census' (the data behind "
    "FiveThirtyEight's 'Most Common Names', which the paper cites as [8]). Gender: 'US Likelihood of Gender "
    "by Name in 2014' (from Social Security Administration baby-name counts; the paper's [13]). The paper's "
    "names: names_used_DERIVED.csv, from the resume dataset of namhkoh/BAD-BiAs-Detection-in-LLMs (2023). "
    "Converted by scripts/build_screening_names.py."
)
PREFILTER = (
    "first names: a known gender likelihood and a share >= 0.5 for one group; per group the 500 with the "
    "highest share for it (ties: more observations). Surnames: at least 1000 people and a share >= 0.5 for one "
    "group; per group the 500 with the highest share (ties: more people). Suppressed shares count as 0."
)


def share(text):
    text = text.strip()
    if text in ("", "(S)"):
        return 0.0
    return round(float(text) / 100.0, 4)


def title_case(name):
    # "O'DONNELL" -> "O'Donnell", "HO-JUN" -> "Ho-Jun": capitalise after apostrophes and hyphens.
    out, upper_next = [], True
    for c in name.lower():
        out.append(c.upper() if upper_next else c)
        upper_next = c in "'- "
    return "".join(out)


def read_gender(path):
    genders = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sex = {"M": "Male", "F": "Female"}[row["sex"]]
            genders[row["name"].strip().lower()] = (sex, round(float(row["gender.prob"]), 4))
    return genders


def read_first_names(path, genders):
    records = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = title_case(row["firstname"].strip())
            gender = genders.get(name.lower())
            records[name.lower()] = {
                "name": name,
                "observations": int(row["obs"]),
                "ethnicity": {g: share(row[FIRST_COLUMNS[g]]) for g in GROUPS},
                "gender": gender[0] if gender else None,
                "gender_probability": gender[1] if gender else None,
            }
    return records


def read_surnames(path):
    records = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = title_case(row["name"].strip())
            records[name.lower()] = {
                "name": name,
                "count": int(row["count"]),
                "ethnicity": {g: share(row[SURNAME_COLUMNS[g]]) for g in GROUPS},
            }
    return records


def capped_union(records, size_key, eligible):
    kept = {}
    for group in GROUPS:
        pool = [r for r in records if eligible(r) and r["ethnicity"][group] >= MIN_SHARE]
        pool.sort(key=lambda r: (-r["ethnicity"][group], -r[size_key], r["name"]))
        for r in pool[:PER_GROUP_CAP]:
            kept[r["name"]] = r
    return sorted(kept.values(), key=lambda r: r["name"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", default="/work/shared/data/bad_resume")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "data/screening/names.json"))
    args = parser.parse_args()
    src = pathlib.Path(args.source_dir)

    genders = read_gender(src / "us-likelihood-of-gender-by-name-in-2014.csv")
    first = read_first_names(src / "firstnames_DERIVED.csv", genders)
    surnames = read_surnames(src / "surnames.csv")

    first_kept = capped_union(first.values(), "observations", lambda r: r["gender"] is not None)
    surnames_kept = capped_union(surnames.values(), "count", lambda r: r["count"] >= MIN_SURNAME_COUNT)

    paper = []
    with open(src / "names_used_DERIVED.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            first_record = first.get(row["first_name"].lower())
            if first_record is None and row["first_name"].lower() in genders:
                sex, probability = genders[row["first_name"].lower()]
                first_record = {"name": row["first_name"], "observations": None, "ethnicity": None,
                                "gender": sex, "gender_probability": probability}
            paper.append({
                "first_name": row["first_name"],
                "last_name": row["last_name"],
                "gender": row["estimated_gender"],
                "ethnicity": row["estimated_ethnicity"],
                "first_name_record": first_record,
                # The Census writes surnames without punctuation (O'Donnell as ODONNELL).
                "surname_record": surnames.get(row["last_name"].lower().replace("'", "").replace("-", "")),
            })

    document = {
        "format": "codebias-names/1",
        "source": SOURCE,
        "prefilter": PREFILTER,
        "groups": GROUPS,
        "first_names": first_kept,
        "surnames": surnames_kept,
        "paper": paper,
    }
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # One record per line: small diffs, readable.
    with open(out, "w", encoding="utf-8") as f:
        f.write("{\n")
        head = ["format", "source", "prefilter", "groups"]
        for key in head:
            f.write(f" {json.dumps(key)}: {json.dumps(document[key], ensure_ascii=False)},\n")
        for i, key in enumerate(["first_names", "surnames", "paper"]):
            f.write(f" {json.dumps(key)}: [\n")
            items = document[key]
            for j, item in enumerate(items):
                f.write("  " + json.dumps(item, ensure_ascii=False, separators=(",", ":")) + ("," if j + 1 < len(items) else "") + "\n")
            f.write(" ]" + ("," if i < 2 else "") + "\n")
        f.write("}\n")
    print(f"{out}: {len(first_kept)} first names, {len(surnames_kept)} surnames, {len(paper)} paper names")


if __name__ == "__main__":
    main()
