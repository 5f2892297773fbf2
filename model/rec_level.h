/* rec_level.h — record.level: how much of what the model reports a run
 * records, each level adding to the previous. One list (xenum.h) for the
 * recorder (analysis/recorder: the tables it writes and the trace kinds it
 * asks for; runs.level, read back by the readers) and the configuration key
 * (config/: its choices, names and docs). */
#ifndef TESSERA_REC_LEVEL_H
#define TESSERA_REC_LEVEL_H

#include "model/xenum.h"

#define REC_LEVELS(X)                                                                       \
    X(REC_, SUMMARY, "summary", "runs, params and counters")                                \
    X(REC_, TASKS, "tasks", "+ frames, fence stalls and core tasks")                         \
    X(REC_, MEM, "mem", "+ every SM access (every transaction); the default")               \
    X(REC_, EVENTS, "events", "+ the full event log")

typedef enum rec_level { REC_LEVELS(XENUM_ID) REC_LEVEL_COUNT } rec_level_t;

#endif
