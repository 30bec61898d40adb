# SPDX-License-Identifier: Apache-2.0
"""Prints a mock run's graph launch time and its 'incomplete' notes
(tests/lit/runtime/mock-graph-time.test). usage: graph_time.py report.json"""
import json
import sys

r = json.load(open(sys.argv[1]))
graph = [l for l in r["launches"] if l.get("api") == "cuGraphLaunch"]
print("graph launch gpu_ns", graph[-1]["gpu_ns"] if graph else None)
notes = [n for n in r["notes"] if "incomplete" in n]
print("incomplete notes", len(notes))
for n in notes:
    print(n)
