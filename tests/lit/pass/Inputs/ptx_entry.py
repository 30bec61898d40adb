# SPDX-License-Identifier: Apache-2.0
# Prints the body of one .entry of a PTX file with the names that differ
# between two builds of the same code normalised: the entry's own name
# (parameter names carry it), the __gm_native suffix of callees, the
# numbers in labels and call sequences, and comments. Used by tests/lit/pass/native_copy.ll.
# Usage: ptx_entry.py FILE.ptx ENTRY
import re
import sys

text = open(sys.argv[1]).read().splitlines()
name = sys.argv[2]
out, on = [], False
for line in text:
    if re.match(r"^\.(visible|weak)?\s*\.entry " + re.escape(name) + r"\(", line) or \
       re.match(r"^\.entry " + re.escape(name) + r"\(", line):
        on = True
    if on:
        line = line.replace(name + "_param", "ENTRY_param").replace("__gm_native", "")
        line = re.sub(r"\s*//.*", "", line)
        line = re.sub(r"(\$L__[a-zA-Z_]+?)\d+", r"\1N", line)
        out.append(re.sub(r"callseq \d+", "callseq N", line))
        if line == "}":
            break
if not out:
    sys.exit("ptx_entry.py: no .entry %s in %s" % (name, sys.argv[1]))
print("\n".join(out))
