/*
 * engine.c - the choice of the counting engine, made once at load: the
 * rest of the agent reaches the engine only through the table chosen here
 * (engine.h, agent->engine), so the engine= option is read in this one place.
 */
#include "engine.h"

const struct engine_ops *engine_select(const agent_options *opts)
{
    return opts->engine == AGENT_ENGINE_FAST ? &fast_engine_ops : &step_engine_ops;
}
