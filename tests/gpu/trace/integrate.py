#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Wires runtime/trace_*.c into libgpumem (the runtime engineer's files): five
# small edits, each applied only if not yet present, each anchored on a line
# that must exist (else it stops and names the anchor). Run once from the
# repository root (or pass the root): python3 tests/gpu/trace/integrate.py
#   runtime/CMakeLists.txt    compile runtime/trace_*.c into gpumem, link gmsim
#   runtime/src/cupti_sub.c   ignore API callbacks of the tracer's own driver calls
#   runtime/src/launch.c      gm_trace_launch_begin at an instrumented launch's
#                             entry, gm_trace_launch_end at its exit
#   runtime/src/lifecycle.c   gm_trace_shutdown before the exit report
# Depends on python3 only.
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
INC = '#include "trace_session.h"\n'

EDITS = [
    ("runtime/CMakeLists.txt", "install(TARGETS gpumem LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})",
     "# tracing (--gm-analyses=trace): runtime/trace_*.c, feeding libgmsim\n"
     "file(GLOB GM_TRACE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/trace_*.c)\n"
     "target_sources(gpumem PRIVATE ${GM_TRACE_SOURCES})\n"
     "target_include_directories(gpumem PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n"
     "target_link_libraries(gpumem PRIVATE gmsim)\n", "before"),
    ("runtime/src/cupti_sub.c", '#include "rt.h"\n', INC, "after"),
    ("runtime/src/cupti_sub.c", "    if (gm_tls()->in_runtime) return;\n",
     "    if (gm_tls()->in_runtime || gm_trace_internal()) return;\n", "replace"),
    ("runtime/src/launch.c", '#include "rt.h"\n', INC, "after"),
    ("runtime/src/launch.c",
     "        for (uint32_t i = 0; i < fi->nmods; i++) gm_alloctab_enter(fi->mods[i], d->stream, (int)dev);\n",
     "        struct gm_trace_launch_args ta = {\n"
     "            .func = (CUfunction)d->fn, .name = fi->name, .dyn_shared = d->shmem,\n"
     "            .stream = d->stream, .modules = &gm_st.reg, .allocs = &gm_st.allocs };\n"
     "        memcpy(ta.grid, d->grid, sizeof ta.grid);\n"
     "        memcpy(ta.block, d->block, sizeof ta.block);\n"
     "        pthread_mutex_lock(&gm_st.lock);\n"
     "        gm_trace_launch_begin(&ta);\n"
     "        pthread_mutex_unlock(&gm_st.lock);\n", "after"),
    ("runtime/src/launch.c",
     "        else gm_warn(\"kernel %s failed (%s); its counters are not read\", fi->name, gm_cu_err(r));\n    }\n",
     "    gm_trace_launch_end();\n", "after"),
    ("runtime/src/lifecycle.c", '#include "rt.h"\n', INC, "after"),
    ("runtime/src/lifecycle.c", "    write_report(end_kind, status, in_signal);\n    gm_st.active = 0;\n",
     "    if (!in_signal) gm_trace_shutdown();   /* online simulation report, trace file */\n", "before"),
]


def apply(path, anchor, text, where):
    p = os.path.join(root, path)
    s = open(p).read()
    if (where == "replace" and text in s) or (where != "replace" and text in s):
        return "already"
    if s.count(anchor) != 1:
        sys.exit("integrate.py: %s: anchor not found exactly once:\n%s" % (path, anchor))
    new = {"before": text + anchor, "after": anchor + text, "replace": text}[where]
    open(p, "w").write(s.replace(anchor, new))
    return "edited"


for e in EDITS:
    print("%-26s %s" % (e[0], apply(*e)))
