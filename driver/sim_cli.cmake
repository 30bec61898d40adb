# SPDX-License-Identifier: Apache-2.0
# gpumem-sim: offline cache simulation of a gpumem trace (or a synthetic one).
if(TARGET gmsim)
  add_executable(gpumem-sim ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim.c
                            ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim_run.c
                            ${CMAKE_CURRENT_LIST_DIR}/gpumem_sim_print.c)
  target_link_libraries(gpumem-sim PRIVATE gmsim)
  target_compile_definitions(gpumem-sim PRIVATE _POSIX_C_SOURCE=200809L)
  install(TARGETS gpumem-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
