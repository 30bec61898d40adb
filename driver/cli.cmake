# SPDX-License-Identifier: Apache-2.0
# The `gpumem` user CLI (driver/gpumem_cli*.c): re-renders saved JSON
# reports. Depends on the report library (runtime/report) only; no CUDA.
if(TARGET gpumem_report)
  # target gpumem_cli (the runtime library owns the target name "gpumem"),
  # binary bin/gpumem
  add_executable(gpumem_cli ${CMAKE_CURRENT_SOURCE_DIR}/gpumem_cli.c
                            ${CMAKE_CURRENT_SOURCE_DIR}/gpumem_cli_report.c
                            ${CMAKE_CURRENT_SOURCE_DIR}/gpumem_cli_profile.c
                            ${CMAKE_CURRENT_SOURCE_DIR}/gpumem_cli_summary.c)
  set_target_properties(gpumem_cli PROPERTIES OUTPUT_NAME gpumem)
  # libstdc++ only for __cxa_demangle (readable kernel names; the report
  # library references it weakly). --no-as-needed: a weak reference alone
  # would not keep the library.
  target_link_libraries(gpumem_cli PRIVATE gpumem_report -Wl,--no-as-needed stdc++ -Wl,--as-needed)
  target_compile_definitions(gpumem_cli PRIVATE GM_VERSION="${PROJECT_VERSION}" _GNU_SOURCE)
  install(TARGETS gpumem_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
