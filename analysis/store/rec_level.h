/* rec_level.h — the record levels: how much of what the model reports a run
 * records, each level adding to the previous, and what runs.level holds (the
 * level's name, docs/SCHEMA.md). One list (X(PREFIX, ID, "name", doc), as
 * model/xenum.h reads it) for the recorder (the tables it writes and the
 * trace kinds it asks for), the readers (db.h: the levels of a stored run)
 * and the configuration key record.level (config/: its choices, names and
 * docs). A leaf: no include, no code — which is why config/, which may not
 * include analysis/, may include it (scripts/check-includes.sh). */
#ifndef TESSERA_REC_LEVEL_H
#define TESSERA_REC_LEVEL_H

#define REC_LEVELS(X)                                                                       \
    X(REC_, SUMMARY, "summary", "runs, params and counters")                                \
    X(REC_, TASKS, "tasks", "+ frames, fence stalls and core tasks")                         \
    X(REC_, MEM, "mem", "+ every SM access (every transaction); the default")               \
    X(REC_, EVENTS, "events", "+ the full event log")

#define REC_LEVEL_ENUM(P, id, name, doc) P##id,
typedef enum rec_level { REC_LEVELS(REC_LEVEL_ENUM) REC_LEVEL_COUNT } rec_level_t;
#undef REC_LEVEL_ENUM

#endif
