#!/usr/bin/env python3
"""Converts BLS CPS table 11 (cpsaat11.xlsx, 2022 annual averages) into data/screening/cps_table11.json.

The xlsx is read as the zip of XML it is (no spreadsheet library): column A holds the occupation,
its cell style's indent the hierarchy level; B the employed count in thousands; C..G the shares of
women, White, Black or African American, Asian and Hispanic or Latino in percent ("–" where BLS
shows no figure). Usage: convert_cps_table11.py cpsaat11.xlsx > data/screening/cps_table11.json
"""
import json
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def text_of(element):
    return "".join(t.text or "" for t in element.iter("{%s}t" % NS["m"]))


def main(path):
    book = zipfile.ZipFile(path)
    strings = [text_of(si) for si in ET.fromstring(book.read("xl/sharedStrings.xml")).findall("m:si", NS)]
    styles = ET.fromstring(book.read("xl/styles.xml"))
    indents = []
    for xf in styles.find("m:cellXfs", NS).findall("m:xf", NS):
        alignment = xf.find("m:alignment", NS)
        indents.append(int(alignment.get("indent", "0")) if alignment is not None else 0)
    core = book.read("docProps/core.xml").decode()
    subject = re.search(r"<dc:subject>(.*?)</dc:subject>", core).group(1)
    year = int(re.search(r"(\d{4}) annual averages", subject).group(1))
    sheet = ET.fromstring(book.read("xl/worksheets/sheet1.xml"))
    rows = []
    for row in sheet.find("m:sheetData", NS).findall("m:row", NS)[1:]:
        cells = {}
        for cell in row.findall("m:c", NS):
            column = re.match(r"[A-Z]+", cell.get("r")).group(0)
            value = cell.find("m:v", NS)
            raw = strings[int(value.text)] if cell.get("t") == "s" else value.text
            cells[column] = (raw, int(cell.get("s", "0")))
        name, style = cells["A"]
        name = " ".join(name.split())
        level = 0 if name.startswith("Total") else indents[style] + 1

        def share(column):
            raw = cells[column][0]
            try:
                return round(float(raw) / 100, 4)
            except ValueError:
                return None

        rows.append({
            "occupation": name,
            "level": level,
            "employed_thousands": int(float(cells["B"][0])),
            "women": share("C"), "white": share("D"), "black": share("E"),
            "asian": share("F"), "hispanic": share("G"),
        })
    out = {
        "source": "U.S. Bureau of Labor Statistics, Current Population Survey, table 11 (cpsaat11): "
                  "Employed persons by detailed occupation, sex, race, and Hispanic or Latino ethnicity, "
                  f"{year} annual averages (https://www.bls.gov/cps/cpsaat11.htm); the file the BAD paper "
                  "(seeds/003, ref. [10]) used, converted by scripts/convert_cps_table11.py",
        "year": year,
        "units": "employed_thousands: persons 16 years and over, thousands; shares: fractions of the row's employed",
        "notes": [
            "Hispanic or Latino is an ethnicity of any race: those persons are also counted in White, Black or Asian, so the four shares of a row overlap and do not sum to 1.",
            "The race columns are White, Black or African American, and Asian only; other races are not shown, so they do not sum to 1 either.",
            "null: BLS shows no figure (base below 75,000).",
            "level: 0 the total, 1 the five broadest groups, 2..4 narrower ones, from the indentation of the xlsx's cells (4: a detailed occupation).",
            "Rows are in the order of the file the paper used, sorted by employed count (descending), not BLS's order, so which group a row belongs to cannot be recovered; only its level can.",
        ],
        "rows": rows,
    }
    # One row per line, so that a diff of a new year's table reads row by row.
    head = json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1, ensure_ascii=False)
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    sys.stdout.write(head[:-2] + ',\n "rows": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
