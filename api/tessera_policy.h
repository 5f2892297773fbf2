/* tessera_policy.h — policies of your own (docs/STUDY-POLICIES.md): the small,
 * versioned C interface through which a shared object (or a Python callable)
 * decides in place of a built-in policy, selected with
 *
 *   -s sm.arbiter=plugin:PATH.so      a free bank chooses among its waiting requests (T8)
 *   -s sm.bank_map=plugin:PATH.so     an address picks its bank
 *   -s simt.scheduler=plugin:PATH.so  the SIMT unit orders its eligible warps (S6)
 *
 * A plugin exports one object, `const tessera_policy_t tessera_policy`, with
 * abi = TESSERA_POLICY_ABI, its kind, its name and the callbacks of its kind.
 * Tessera loads the file once per process (dlopen), checks the symbol, the
 * ABI version and the kind before anything runs, and per run calls create(),
 * the decision callback at each decision, destroy(). Every answer is checked:
 * an answer that is not one of the choices ends the run with status `error`
 * (a message naming the plugin, the call and the cycle; what was recorded
 * before stays). A plugin is the user's own native code: it runs with the
 * user's rights inside the simulator, and a crash in it is a crash of the run.
 * This header is self-contained: a plugin needs no Tessera library to link. */
#ifndef TESSERA_POLICY_H
#define TESSERA_POLICY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface. A plugin built against another version is
 * refused when loaded; it changes whenever a struct below changes. */
#define TESSERA_POLICY_ABI 1

/* The symbol every plugin exports (a tessera_policy_t). */
#define TESSERA_POLICY_SYMBOL "tessera_policy"

typedef enum tessera_policy_kind {
    TESSERA_POLICY_ARBITER = 1,   /* sm.arbiter: arbitrate() */
    TESSERA_POLICY_BANK_MAP = 2,  /* sm.bank_map: bank_of() */
    TESSERA_POLICY_SCHEDULER = 3, /* simt.scheduler: schedule() */
} tessera_policy_kind_t;

/* What Tessera offers a plugin during its run (valid from create() to
 * destroy(); the functions may be called from any callback). */
typedef struct tessera_host tessera_host_t;
struct tessera_host {
    uint32_t abi;             /* TESSERA_POLICY_ABI */
    unsigned banks;           /* sm.banks */
    uint64_t period_ps;       /* clock.period_ps */
    uint64_t seed;            /* sim.seed */
    /* The value of `-s plugin.NAME.KEY=VALUE` for this plugin's NAME, or NULL
       when not given. */
    const char *(*param)(const tessera_host_t *h, const char *key);
    /* The next 64 bits of this plugin's own random stream, seeded by sim.seed
       (the same seed gives the same draws on every host). */
    uint64_t (*random)(const tessera_host_t *h);
    /* Uniform in [0, n), n > 0, from the same stream, without modulo bias. */
    uint64_t (*random_below)(const tessera_host_t *h, uint64_t n);
    /* Why create() failed (a bad parameter, ...), or why a decision callback
       cannot answer: its answer is then ignored and the run ends with status
       error and this message (as after a wrong answer). */
    void (*fail)(const tessera_host_t *h, const char *message);
    void *impl;               /* private to Tessera */
};

/* --- SM arbiter (sm.arbiter, T8) ------------------------------------------ */

/* One request waiting for the bank that is free now. */
typedef struct tessera_arb_request {
    uint8_t requester;        /* the core (core.model = mimd) or lane (simt), 0..15 */
    uint8_t frame;            /* the frame of the requester's task */
    uint8_t is_store;         /* 1: st or st_sync, 0: ld or ld_sync */
    uint8_t sync;             /* 1: ld_sync or st_sync (sm.atomics, D16) */
    uint16_t addr;            /* the byte address, 0..4095 */
    uint64_t request_ps;      /* when the requester sent it */
    uint64_t arrive_ps;       /* when it reached the bank (<= now_ps) */
} tessera_arb_request_t;

/* A grant: the bank is free and `req` lists the requests posted to it that
 * have arrived and may be granted (at least one; with sm.atomics, not those
 * a D16 lock holds back), by requester. Asked at every grant, also when
 * there is one choice, so that a plugin sees every grant it makes. */
typedef struct tessera_arb_call {
    uint64_t now_ps;          /* the grant's time */
    uint64_t cycle;           /* now_ps / clock.period_ps */
    unsigned bank;            /* 0..sm.banks-1 */
    int last;                 /* the requester this bank granted last, -1: none yet */
    unsigned n;               /* entries of req, >= 1 */
    const tessera_arb_request_t *req;
} tessera_arb_call_t;

/* --- bank mapping (sm.bank_map) --------------------------------------------- */
/* bank_of(state, addr, banks) is called once for every address 0..4095 in
 * order when the run starts (the SM keeps the table: no call per access);
 * it returns the bank, 0..banks-1. */

/* --- warp scheduler (simt.scheduler, S6) ------------------------------------ */

/* One resident warp with instructions left. */
typedef struct tessera_warp {
    uint8_t slot;             /* the warp's slot: the index of its lowest lane */
    uint8_t frame;            /* the IF it runs */
    uint16_t lanes;           /* its active lanes (the top of its stack) */
    uint8_t ip;               /* the slot of its next instruction, 0..15 */
    uint8_t opcode;           /* that instruction's opcode (spec section 5) */
    uint8_t is_mem;           /* 1: that instruction is a ld or st */
    uint8_t mem_pending;      /* 1: its last ld/st has not completed by now */
    uint64_t age_ps;          /* when the warp started (S1: distinct, lower = older) */
    uint64_t last_issue_ps;   /* when it last issued; age_ps when it has not yet */
    uint64_t issued;          /* warp instructions it has issued */
} tessera_warp_t;

/* An issuing cycle with two or more eligible warps (S3, S4: they may issue
 * now), listed in warp[] by slot; the scheduler writes a permutation of
 * 0..n-1 to order[]: the first simt.issue_width of them issue. waiting[]
 * lists the other resident warps (they cannot issue now: S3, S4), by slot.
 * `last` holds the slots that issued in the previous issuing cycle, in
 * their order (n_last = 0: none yet). A cycle with one eligible warp issues
 * it without asking (every order gives it); the warps' fields then tell
 * what happened in between. */
typedef struct tessera_sched_call {
    uint64_t now_ps;
    uint64_t cycle;
    unsigned width;           /* simt.issue_width */
    unsigned n;               /* entries of warp, >= 2 */
    const tessera_warp_t *warp;
    unsigned n_waiting;       /* entries of waiting */
    const tessera_warp_t *waiting;
    unsigned n_last;
    const uint8_t *last;      /* slots */
} tessera_sched_call_t;

/* --- the plugin ----------------------------------------------------------- */

typedef struct tessera_policy {
    uint32_t abi;             /* TESSERA_POLICY_ABI */
    uint32_t kind;            /* tessera_policy_kind_t */
    const char *name;         /* [a-z0-9_]+, 1..31 characters: its plugin.NAME.* keys */
    /* The parameter keys it reads (NULL-terminated); a plugin.NAME.KEY not
       listed is an error before the run. NULL: it reads none. */
    const char *const *params;
    /* Makes the per-run state (*state, may stay NULL); 0 on success, else
       the run does not start (call host->fail to say why). NULL: no state. */
    int (*create)(const tessera_host_t *host, void **state);
    /* Frees it after the run. NULL: nothing to free. */
    void (*destroy)(void *state);
    /* ARBITER: the requester to grant, one of call->req[].requester. */
    int (*arbitrate)(void *state, const tessera_arb_call_t *call);
    /* BANK_MAP: the bank of `addr`, 0..banks-1. */
    unsigned (*bank_of)(void *state, unsigned addr, unsigned banks);
    /* SCHEDULER: order[0..n) := a permutation of 0..n-1; return 0 (non-zero:
       the run ends with status error). */
    int (*schedule)(void *state, const tessera_sched_call_t *call, uint8_t *order);
} tessera_policy_t;

/* In a plugin: TESSERA_POLICY_EXPORT = { .abi = TESSERA_POLICY_ABI, ... }; */
#if defined(__GNUC__)
#define TESSERA_POLICY_EXPORT \
    __attribute__((visibility("default"))) const tessera_policy_t tessera_policy
#else
#define TESSERA_POLICY_EXPORT const tessera_policy_t tessera_policy
#endif

#ifdef __cplusplus
}
#endif

#endif
