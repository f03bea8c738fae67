/*
 * progress.h - with progress=FILE, the count so far written into FILE
 * while the program runs (progress.c).
 */
#ifndef PSF_PROGRESS_H
#define PSF_PROGRESS_H

#include "agent.h"

void progress_start(agent *a);             /* at VMInit: with progress=FILE, the count so far into FILE */

#endif
