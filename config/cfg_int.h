/* cfg_int.h — inside the configuration module: the key table's entries and
 * the value parsers and printers that work from them. Private to
 * config/. Invariant: for every key, parse(format(v)) == v, and format of a
 * parsed value is its canonical text. */
#ifndef TESSERA_CFG_INT_H
#define TESSERA_CFG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"
#include "model/latency.h"

#define CFG_VALUE_MAX (GPU_POLICY_PATH_MAX + 128) /* room for the canonical text of any value */

typedef enum cfg_type {
    CFG_T_UINT = 0,           /* unsigned integer, decimal or 0x hex, min..max */
    CFG_T_REAL,               /* decimal number, rmin..rmax */
    CFG_T_ENUM,               /* one of names[] */
    CFG_T_BOOL,               /* on/off (true/false, yes/no, 1/0), a bool field */
    CFG_T_LAT,                /* a latency (lat_t) whose every value is >= min */
    CFG_T_POLICY,             /* one of names[] (an ENUM), or plugin:PATH for decision
                                 point `point` (cfg_plugin.c) */
} cfg_type_t;

/* The machines a key applies to (cfg_key_t.on; 0 stands for mimd and simt). */
enum { CFG_ON_MIMD = 1, CFG_ON_SIMT = 2, CFG_ON_ISS = 4 };

/* What else a key needs to have an effect (cfg_key_t.needs): the conditions
 * of cfg_keys.c, each with its reason and its remedy. */
typedef enum cfg_need {
    CFG_NEED_NONE = 0,
    CFG_NEED_LOOKAHEAD,       /* ts.policy = lookahead */
    CFG_NEED_RANDOM,          /* something random: a random arbiter, a drawn latency, a plugin */
    CFG_NEED_IBUFFER,         /* simt.ibuffer >= 1 */
    CFG_NEED_COLLECTORS,      /* simt.collectors >= 1 */
    CFG_NEED_COUNT
} cfg_need_t;

typedef struct cfg_key {
    cfg_key_info_t info;      /* what cfg_key_info() returns */
    const char *section;      /* info.key before the dot */
    const char *name;         /* info.key after the dot */
    uint8_t type;             /* cfg_type_t */
    uint8_t size;             /* UINT, ENUM: size of the field in bytes */
    size_t off;               /* offset of the field in cfg_t */
    uint64_t min, max;        /* UINT: bounds; LAT: min (max is LAT_MAX_CYCLES) */
    double rmin, rmax;        /* REAL: bounds */
    const char *const *names; /* ENUM: the choices, NULL-terminated */
    const int *vals;          /* ENUM: the value of each name (NULL: its index) */
    uint8_t point;            /* POLICY: gpu_point_t */
    uint8_t on;               /* CFG_ON_* of the machines it applies to; 0: mimd and simt */
    uint8_t needs;            /* cfg_need_t: what else it needs to have an effect */
    bool replicate;           /* runs differing only in it may be averaged: it never changes
                                 a simulated result (the host's keys), or it is sim.seed */
} cfg_key_t;

/* NULL when condition `need` holds for cfg; else why it does not ("ts.policy
 * is inorder: the window is the lookahead policy's"), with in *fix what
 * would make it hold ("-s ts.policy=lookahead"). cfg_keys.c. */
const char *cfg_need_unmet(unsigned need, const cfg_t *cfg, const char **fix);

/* When condition `need` holds, for people ("with ts.policy = lookahead"). */
const char *cfg_need_text(unsigned need);

/* The table (cfg_keys.c); i < cfg_key_count(). */
const cfg_key_t *cfg_key_at(size_t i);

/* TESS_OK when `section` has keys; else TESS_EINPUT "unknown section …". */
int cfg_section_check(const char *section, diag_t *d);

/* The key `section`.`name`; NULL after reporting "KEY: unknown section …" or
 * "KEY: unknown key (SECTION has …)" as TESS_EINPUT. */
const cfg_key_t *cfg_key_lookup(const char *section, const char *name, diag_t *d);

/* Parses `text` as key k's value and stores it in cfg; on failure (TESS_EINPUT,
 * message "KEY: WHAT") cfg is unchanged. */
int cfg_value_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d);

/* The canonical text of key k's value in cfg. */
void cfg_value_format(const cfg_key_t *k, const cfg_t *cfg, char *buf, size_t n);

typedef enum cfg_lat_status {
    CFG_LAT_OK = 0,
    CFG_LAT_SYNTAX,           /* not a latency; `why` says what is wrong or is "" */
    CFG_LAT_RANGE,            /* a value above LAT_MAX_CYCLES; `why` is the full phrase */
} cfg_lat_status_t;

/* Parses the latency syntax (`N`, `uniform:A..B`, `geometric:M`,
 * `choice:A,B,...`) into *out (fully written, unused fields zero). */
cfg_lat_status_t cfg_lat_parse(const char *text, lat_t *out, char *why, size_t n);

/* True when `text` (blanks before it ignored) starts a latency form whose
 * values are a comma-separated list (`choice:`); the sweep's value lists
 * keep such a form's commas. */
bool cfg_lat_takes_list(const char *text);

/* The canonical text of a latency ("4", "uniform:1..4", "geometric:2.5",
 * "choice:1,1,8"). */
void cfg_lat_format(const lat_t *l, char *buf, size_t n);

/* --- policies of one's own (cfg_plugin.c) --- */

/* When `text` is "plugin:PATH", loads the plugin for k's point into cfg and
 * returns true with *rc (TESS_OK, or TESS_EUSAGE naming the key and the
 * plugin: no file, no symbol, another ABI or kind; cfg unchanged on
 * failure); false for any other text (a built-in name, parsed as ENUM). */
bool cfg_policy_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, int *rc, diag_t *d);

/* The point goes back to its enumerated (built-in) choice. */
void cfg_policy_clear(cfg_t *cfg, unsigned point);

/* "plugin:/abs/path.so" (or "python:LABEL") when `point` is a plugin, else NULL. */
const char *cfg_policy_value(const cfg_t *cfg, unsigned point);

/* The checks of a plugin's descriptor for `point` (ABI, kind, name,
 * callbacks); `what` names it in the message. TESS_OK or TESS_EUSAGE. */
int cfg_policy_check(const char *key, const char *what, const tessera_policy_t *impl,
                     unsigned point, diag_t *d);

/* Sets plugin parameter `name` ("NAME.KEY", after "plugin.") to `value`
 * (replacing an earlier value). TESS_OK or TESS_EINPUT; cfg unchanged on
 * failure. */
int cfg_plugin_param(cfg_t *cfg, const char *name, const char *value, diag_t *d);

#endif
