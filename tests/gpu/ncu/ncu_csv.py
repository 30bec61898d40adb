# SPDX-License-Identifier: Apache-2.0
# Reads Nsight Compute's `--csv --page raw` output (one row per profiled
# launch, a units row after the header) and sums every metric per kernel.
# Tolerates the program's own output and ==PROF== lines around the table,
# thousands separators, auto-scaled units (Ksector) and empty cells.
# Depends on python3 only.
import csv

NAME_COLS = ("Kernel Name", "launch__kernel_name")


def _number(cell):
    s = cell.strip().replace(",", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        return int(s)
    except ValueError:
        return float(s)


SCALE = {"K": 10**3, "M": 10**6, "G": 10**9}
BASE_UNITS = ("sector", "request", "inst", "warp", "thread", "byte", "wavefront", "branch")


def _scale(unit):
    """Factor of an auto-scaled unit (Ksector, Mrequest); 1 otherwise."""
    u = unit.strip()
    if len(u) > 1 and u[0] in SCALE and u[1:].rstrip("s") in BASE_UNITS:
        return SCALE[u[0]]
    return 1


def _table(lines):
    """(header, units, data rows) of the first CSV table in lines."""
    rows = [r for r in csv.reader(lines) if r]
    for i, r in enumerate(rows):
        if r and r[0] == "ID" and any(c in r for c in NAME_COLS):
            head = r
            units = rows[i + 1] if i + 1 < len(rows) else []
            data = [x for x in rows[i + 1:] if len(x) == len(head) and x[0].strip().isdigit()]
            return head, units, data
    raise ValueError("no ncu CSV table (no header row starting with \"ID\")")


def read(path, metrics):
    """{kernel name: {metric: sum over launches, "launches": n}}; a metric
    absent from the table (or empty in every row) is left out."""
    with open(path, errors="replace") as f:
        head, units, data = _table(f.read().splitlines())
    scale = {m: _scale(units[head.index(m)]) for m in metrics if m in head and len(units) == len(head)}
    ncol = next(head.index(c) for c in NAME_COLS if c in head)
    out = {}
    for row in data:
        k = out.setdefault(row[ncol], {"launches": 0})
        k["launches"] += 1
        for m in metrics:
            if m not in head:
                continue
            v = _number(row[head.index(m)])
            if v is not None:
                v = v * scale.get(m, 1)
                k[m] = k.get(m, 0) + (round(v) if isinstance(v, float) and scale.get(m, 1) > 1 else v)
    return out
