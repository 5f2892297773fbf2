/* cfg.h — the configuration: INI files and `-s section.key=value` overrides
 * turned into the plain structs that the model (gpu_desc_t), the driver and
 * the recorder receive. Only this module parses configuration text.
 * Invariant: one const key table (cfg_keys.c) is the single source for
 * defaults, parsing, printing and the documentation; a failed call leaves
 * the cfg_t it was given unchanged. */
#ifndef TESSERA_CFG_H
#define TESSERA_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/store/rec_level.h" /* a leaf: the one include of analysis/ */
#include "events/base/diag.h"
#include "model/gpu.h"
#include "model/xenum.h"

/* record.level's choices: REC_LEVELS (analysis/store/rec_level.h, the
 * levels the recorder records and runs.level names), names indexed by
 * rec_level_t. */
extern const char *const cfg_rec_level_names[REC_LEVEL_COUNT + 1];

/* sim.progress: X(PREFIX, ID, "name", value); the values are those of the
 * field (off is -1 so that 0 is the default, auto). */
#define CFG_PROGRESSES(X)                                                                   \
    X(CFG_PROGRESS_, AUTO, "auto", 0)  /* print one when stderr is a terminal */            \
    X(CFG_PROGRESS_, ON, "on", 1)      /* always print one */                               \
    X(CFG_PROGRESS_, OFF, "off", -1)   /* never print a progress line */

#define CFG_PROGRESS_VALUE(P, id, name, value) P##id = (value),
typedef enum cfg_progress { CFG_PROGRESSES(CFG_PROGRESS_VALUE) } cfg_progress_t;

typedef struct cfg {
    gpu_desc_t gpu;           /* what the model receives */
    struct {
        uint8_t level;        /* rec_level_t */
        uint64_t from_ps;     /* record from this simulated time on */
        uint64_t to_ps;       /* ... until this time; 0 = until the end */
        uint64_t interval;    /* cycles per interval of the intervals table; 0 = none */
        uint64_t max_mb;      /* stop the run when its database passes this many MiB; 0 = none */
    } record;
    struct {
        uint64_t time_limit;  /* in cycles; 0 = none */
        double wall_limit_s;  /* wall-clock seconds; 0 = none */
        double pace;          /* wall seconds per simulated second; 0 = as fast as possible */
        int progress;         /* cfg_progress_t */
    } sim;
} cfg_t;

/* Fills `cfg` with the defaults of the key table: spec §6 for the model,
 * no limits, record level `mem`. Cannot fail. */
void cfg_default(cfg_t *cfg);

/* Applies the keys of INI file `path` on top of `cfg` (keys not in the file
 * keep their values; a key repeated in the file takes its last value).
 * Returns TESS_OK; TESS_EIO when the file cannot be read ("cannot read
 * 'x.ini': REASON"); TESS_EINPUT for the first bad line ("x.ini:7: KEY:
 * WHAT"); TESS_ENOMEM. On failure `cfg` is unchanged. Does not run the
 * cross-key check (cfg_check): a later -s may still fix it. */
int cfg_load_file(cfg_t *cfg, const char *path, diag_t *diag);

/* The same for INI text held in memory; `name` stands for the file in
 * messages ("NAME:LINE: ..."). */
int cfg_load_string(cfg_t *cfg, const char *text, const char *name, diag_t *diag);

/* Applies one "section.key=value" (a -s argument; blanks around the key and
 * the value are ignored). Returns TESS_OK or TESS_EINPUT with a message
 * "-s 'ARG': KEY: WHAT". On failure `cfg` is unchanged. */
int cfg_set(cfg_t *cfg, const char *assignment, diag_t *diag);

/* The checks between keys, to run once everything is applied: record.to_ps
 * is 0 or above record.from_ps; sim.time_limit cycles fit in 64-bit ps.
 * Returns TESS_OK or TESS_EINPUT naming the key. */
int cfg_check(const cfg_t *cfg, diag_t *diag);

/* What a command line does: applies `config_path` (NULL: none), then each
 * of the n `overrides` in order, then cfg_check. The defaults are NOT reset
 * first: call cfg_default() before. On failure `cfg` is unchanged and diag
 * holds the first error (TESS_EIO, TESS_EINPUT or TESS_ENOMEM). */
int cfg_apply_cli(cfg_t *cfg, const char *config_path, char *const *overrides, int n,
                  diag_t *diag);

/* INI text of every key with its effective value, one [section] each, in
 * table order; cfg_load_string() of it onto any cfg_t gives back `cfg`
 * exactly. Returns a malloc'd string the caller frees, or NULL when out of
 * memory. */
char *cfg_format(const cfg_t *cfg);

/* The parameters a run records (params): calls fn for every key that has
 * an effect on the run (cfg_key_inert is NULL) in table order with
 * "section.key" and the canonical text of its value (as cfg_format prints
 * it; valid during the call only); then, for each point given to a plugin
 * whose key has an effect, KEY.plugin (its name) and KEY.sha256 (of its
 * file; none for a Python callable), and every plugin.NAME.KEY: at most
 * cfg_param_count(cfg) calls in all. */
void cfg_foreach(const cfg_t *cfg, void (*fn)(void *user, const char *key, const char *value),
                 void *user);
size_t cfg_param_count(const cfg_t *cfg);

/* Hands the decision point of policy key `key` to descriptor `impl` held in
 * memory (tessera_set_policy), recorded as `label` ("SCHEME:NAME", not
 * "plugin:..."). TESS_OK, TESS_EINPUT or TESS_EUSAGE (cfg_policy_check); cfg
 * unchanged on failure. */
int cfg_set_policy(cfg_t *cfg, const char *key, const tessera_policy_t *impl,
                   const char *label, diag_t *diag);

/* The section of the plugins' own parameters: -s plugin.NAME.KEY=VALUE, or
 * NAME.KEY = VALUE under [plugin] in a file (docs/STUDY-POLICIES.md). */
#define CFG_PLUGIN_SECTION "plugin"

/* The canonical text of one key's value ("sm.bank") into buf (NUL-terminated,
 * truncated to n). Returns TESS_OK, or TESS_EINPUT for an unknown key. */
int cfg_get(const cfg_t *cfg, const char *key, char *buf, size_t n);

/* The documentation of one key (all strings static, never NULL). */
typedef struct cfg_key_info {
    const char *key;          /* "section.key" */
    const char *def;          /* the default, as cfg_format prints it */
    const char *unit;         /* "cycles", "ps", … or "" */
    const char *values;       /* the valid values, for people */
    const char *doc;          /* what it means, one paragraph */
} cfg_key_info_t;

/* The key table in its order (sections are contiguous); i < cfg_key_count(). */
size_t cfg_key_count(void);
const cfg_key_info_t *cfg_key_info(size_t i);

/* The index of key "section.key" in the table, or SIZE_MAX. */
size_t cfg_key_index(const char *key);

/* The index of the key an assignment "section.key=value" names (blanks
 * around the key allowed), or SIZE_MAX (no such key, a plugin parameter). */
size_t cfg_assignment_key(const char *assignment);

/* --- keys that apply (declared once per key in cfg_keys.c) ---
 * A key applies to some machines (core.model = mimd, simt; tessera iss) and
 * may need another key's value to have an effect (ts.window: ts.policy =
 * lookahead; sim.seed: something random). A run records only the keys that
 * have an effect on it (params; runs.config keeps every key: it reproduces
 * the run and is its run key). */

/* NULL when key i has an effect on a run configured by `cfg`; else why not
 * ("core.model is mimd: the simt.* keys apply only to core.model = simt"),
 * and in *fix (when fix is not NULL) what gives it one ("-s core.model=simt"). */
const char *cfg_key_inert(const cfg_t *cfg, size_t i, const char **fix);

/* Key i is read by `tessera iss` (sm.banks and sm.bank_map: its trace's bank). */
bool cfg_key_for_iss(size_t i);

/* Runs differing only in key i may be averaged without a warning (tessera
 * plot): sim.seed, and the keys that never change a simulated result. */
bool cfg_key_replicate(size_t i);

/* Where key i applies, for people: "mimd, simt", "simt (with simt.ibuffer
 * >= 1)", "mimd, simt, iss". Static text or buf. */
const char *cfg_key_applies(size_t i, char *buf, size_t n);

/* Warns through diag, once per key, for each key with no effect on the run
 * `cfg` describes that the user set: named[i] (a -s or tessera_set of key i;
 * named may be NULL) or a value other than its default (a --config file).
 * Each warning names the key, its value, why and what gives it an effect. */
void cfg_warn_inert(const cfg_t *cfg, const bool *named, diag_t *diag);

/* One sentence on what a section configures ("" for an unknown section). */
const char *cfg_section_doc(const char *section);

#endif
