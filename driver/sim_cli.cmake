# SPDX-License-Identifier: Apache-2.0
# gpumem-sim: offline cache simulation of a gpumem trace (or a synthetic one).
if(TARGET gmsim)
  add_executable(gpumem-sim ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim.c
                            ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim_run.c
                            ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim_print.c
                            ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim_table.c)
  # The report library's helpers (gm_demangle, gm_fmt_bytes, gm_csv_*):
  # one copy of each. libstdc++ only for __cxa_demangle, which the report
  # library references weakly (--no-as-needed keeps it).
  target_include_directories(gpumem-sim PRIVATE ${CMAKE_SOURCE_DIR}/runtime/report/src)
  target_link_libraries(gpumem-sim PRIVATE gmsim gpumem_report -Wl,--no-as-needed stdc++ -Wl,--as-needed)
  target_compile_definitions(gpumem-sim PRIVATE _POSIX_C_SOURCE=200809L)
  install(TARGETS gpumem-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
