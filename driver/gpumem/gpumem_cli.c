/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `gpumem`: the user CLI. Dispatches subcommands (profile, report), prints --help
 * and --version. Depends on libc and the subcommand files only.
 */
#include <stdio.h>
#include <string.h>

#include "gpumem_cli.h"

#ifndef GM_VERSION
#define GM_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fputs("usage: gpumem <command> [options]\n"
          "\n"
          "commands:\n",
          f);
    gm_cli_profile_usage(f);
    gm_cli_report_usage(f);
    fputs("\n"
          "options:\n"
          "  --help       print this help and exit\n"
          "  --version    print the version and exit\n"
          "\n"
          "Programs built with gpumemcc write their reports at exit into ./gpumem-PROGRAM\n"
          "(or $GPUMEM_OUT) and print one line naming it (docs/runtime.md); `gpumem profile`\n"
          "runs one and summarises its report; `gpumem report` re-renders a saved\n"
          "report.json in any format.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "gpumem: missing command (try 'gpumem --help')\n");
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("gpumem %s (report schema gpumem-report v1)\n", GM_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "profile"))
        return gm_cli_profile(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return gm_cli_report(argc - 1, argv + 1);
    fprintf(stderr, "gpumem: unknown command '%s' (try 'gpumem --help')\n", cmd);
    return 2;
}
