/*
 * state.c - the agent's one context struct (agent.h).
 *
 * Defined apart from vmentry.c, which wires the callbacks, so that the
 * callbacks of the files below it (counting.c, natives.c) reach the state
 * without depending on the entry file.
 */
#include "agent.h"

agent g_agent;
