/*
 * machine.c - TSC flags and the date of a calibration (machine.h).
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


int machine_has_cpu_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int found = 0;
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *save = NULL, *tok;
        if (strncmp(line, "flags", 5) != 0)
            continue;
        for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save); tok;
             tok = strtok_r(NULL, " \t\n", &save))
            if (strcmp(tok, flag) == 0) {
                found = 1;
                break;
            }
        break;
    }
    fclose(f);
    return found;
}

void machine_utc_now(char *buf, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
