# SPDX-License-Identifier: Apache-2.0
# Checks that gpumem-sim's CSV header names its counter columns as the JSON
# output names the same counters: for every launch and allocation, each
# CSV column whose name is a JSON count holds that count's value, and every
# JSON counter has its column. Prints "csv = json: N rows" or the first
# mismatch. Usage: csv_vs_json.py OUT.csv OUT.json
import csv
import json
import sys

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
doc = json.load(open(sys.argv[2]))
want = {("launch", str(l["seq"])): l["counts"] for l in doc["launches"]}
want.update({("alloc", str(a["id"])): a["counts"] for a in doc["allocations"]})
n = 0
for r in rows:
    counts = want.get((r["table"], r["id"]))
    if counts is None:
        continue
    for k, v in counts.items():
        if isinstance(v, int) and r.get(k) != str(v):
            sys.exit(f"{r['table']} {r['id']}: column {k} is {r.get(k)!r}, JSON says {v}")
    n += 1
if n != len(want):
    sys.exit(f"{len(want) - n} JSON rows without a CSV row")
print(f"csv = json: {n} rows")
