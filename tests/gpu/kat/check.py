#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares the "expect" lines a known-answer program printed with the
# runtime's JSON report (docs/report-schema.md). Usage:
#   check.py NAME.expect REPORT_DIR_OR_report.json
# Prints PASS/FAIL per expectation (MANUAL for object-level patterns) and
# exits 1 when any fails. Depends on python3 and c++filt (binutils).
import json, os, re, subprocess, sys


def num(v):
    return int(v) if not isinstance(v, str) else int(v, 0)


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def norm(demangled):
    """"void stride<float, 2>(float const*, float*)" -> "stride<float,2>(floatconst*,float*)"."""
    d = demangled[5:] if demangled.startswith("void ") else demangled
    return d.replace(" ", "")


def site_values(rep):
    """(demangled kernel, file basename, line, set, slot) -> value, combined
    over the kernel's sites on that line as the report's counter set says
    ("fold": "or" for bit masks, "sum" otherwise)."""
    mods = {m["modid"]: m for m in rep["modules"]}
    dem = demangle([k["name"] for k in rep["kernels"]])
    vals = {}
    for k in rep["kernels"]:
        kname = norm(dem.get(k["name"], k["name"]))
        mod = mods[k["modid"]]
        slotnames = {c["name"]: c["slots"] for c in mod["counter_sets"]}
        folds = {c["name"]: c.get("fold") or ["sum"] * len(c["slots"]) for c in mod["counter_sets"]}
        for c in k["counters"]:
            names = slotnames.get(c["set"], [])
            for s in c["sites"]:
                site = mod["sites"][s["site"]]
                where = (kname, os.path.basename(site.get("file") or ""), site.get("line", 0))
                for slot, fold, v in zip(names, folds.get(c["set"], []), s["v"]):
                    key = where + (c["set"], slot)
                    v = num(v)
                    vals[key] = vals.get(key, 0) | v if fold == "or" else vals.get(key, 0) + v
    return vals


def kernel_value(vals, label, file, line, set_, slot):
    label = label.replace(" ", "")   # labels are demangled names without arguments
    if not any(k.startswith(label + "(") for (k, _, _, _, _) in vals):
        return None      # no such kernel with counters: a wrong label or a missing kernel
    hits = [v for (k, f, l, s, sl), v in vals.items()
            if (k.startswith(label + "(") and f == file and l == line and s == set_ and sl == slot)]
    return sum(hits) if hits else 0


def alloc_value(rep, label, field):
    for a in rep["allocations"]:
        if a.get("label") != label:
            continue
        acc = a.get("access") or {}
        if field == "size":
            return num(a["size"])
        m = re.fullmatch(r"hist\[(\d+)\]", field)
        if m:
            h = acc.get("hist") or []
            return num(h[int(m.group(1))]) if int(m.group(1)) < len(h) else 0
        return num(acc[field]) if field in acc else None
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check.py NAME.expect REPORT_DIR_OR_JSON")
    path = sys.argv[2]
    if os.path.isdir(path):
        path = os.path.join(path, "report.json")
    try:
        rep = json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit("check.py: cannot read report %s: %s" % (path, e))
    vals = site_values(rep)
    bad = 0
    for line in open(sys.argv[1]):
        f = line.split()
        if not f or f[0] != "expect":
            continue
        if f[1] == "pattern":
            print("MANUAL " + line.strip())
            continue
        if f[1] not in ("allocation",) and not re.fullmatch(r"\S+:\d+", f[2]):
            # a kernel label with spaces (e.g. "stride<int __vector(4),1>"): rejoin
            i = next(i for i in range(2, len(f)) if re.fullmatch(r"\S+:\d+", f[i]))
            f = [f[0], "".join(f[1:i])] + f[i:]
        if f[1] == "allocation":
            got, want = alloc_value(rep, f[2], f[3]), [num(f[4])]
        else:
            file, ln = f[2].rsplit(":", 1)
            set_, slot = f[3].split(".", 1)
            want = [num(x) for x in f[4].split("|")]
            if "|" in slot:  # "taken|not_taken A|B": either order
                s1, s2 = slot.split("|")
                got = (kernel_value(vals, f[1], os.path.basename(file), int(ln), set_, s1),
                       kernel_value(vals, f[1], os.path.basename(file), int(ln), set_, s2))
                ok = list(got) in (want, want[::-1])
                print("%s %s (got %s|%s)" % ("PASS" if ok else "FAIL", line.strip(), *got))
                bad += not ok
                continue
            got = kernel_value(vals, f[1], os.path.basename(file), int(ln), set_, slot)
        ok = got == want[0]
        print("%s %s (got %s)" % ("PASS" if ok else "FAIL", line.strip(), got))
        bad += not ok
    print("%d failed" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
