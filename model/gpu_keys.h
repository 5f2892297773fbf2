/* gpu_keys.h — the one table of the model's settings: for each configuration
 * key that sets a field of gpu_desc_t, its default (spec §6, SIMT-SPEC) and
 * the bounds the model accepts. gpu_desc_default and gpu_desc_check
 * (model/gpu.c) and the configuration's key table (config/cfg_keys.c: the
 * keys' defaults, bounds and the values CONFIG.md documents) are all derived
 * from it, so a default or a bound is one edit here.
 *
 * Each row GPU_KEY_NAME(N, L, E, B) calls the one of its four arguments that
 * fits its kind, and GPU_KEYS lists every row:
 *   N(field, section, name, default, lo, hi)   a number in lo..hi
 *   L(field, section, name, default, lo)       a latency in cycles, at least lo
 *                                              (at most LAT_MAX_CYCLES)
 *   E(field, section, name, names, default)    an enumeration: one of `names`
 *                                              (NULL-terminated), `default` a name
 *   B(field, section, name, default)           on or off
 * Defaults and bounds are plain literals or macros that expand to one (the
 * configuration shows them as written, by stringification); gpu.c checks the
 * literals that stand for a named constant against it at compile time. */
#ifndef TESSERA_GPU_KEYS_H
#define TESSERA_GPU_KEYS_H

#define GPU_KEY_PERIOD_PS(N, L, E, B) N(period_ps, "clock", "period_ps", 1000, 1, 1000000000)
#define GPU_KEY_TS_DECODE(N, L, E, B) L(ts_decode, "ts", "decode", 1, 0)
#define GPU_KEY_TS_XFER(N, L, E, B) L(ts_xfer, "ts", "xfer", 4, 0)
#define GPU_KEY_TS_READY(N, L, E, B) L(ts_ready, "ts", "ready", 1, 0)
#define GPU_KEY_POLICY(N, L, E, B) E(policy, "ts", "policy", gpu_policy_names, inorder)
#define GPU_KEY_WINDOW(N, L, E, B) N(window, "ts", "window", 8, 1, TM_FRAMES)
#define GPU_KEY_CORE_ALU(N, L, E, B) L(core_alu, "core", "alu", 1, 1)
#define GPU_KEY_CORE_MUL(N, L, E, B) L(core_mul, "core", "mul", 2, 1)
#define GPU_KEY_CORE_DIV(N, L, E, B) L(core_div, "core", "div", 8, 1)
#define GPU_KEY_CORE_BRANCH(N, L, E, B) L(core_branch, "core", "branch", 1, 1)
#define GPU_KEY_CORE_READY(N, L, E, B) L(core_ready, "core", "ready", 1, 1)
#define GPU_KEY_BUDGET(N, L, E, B) N(budget, "core", "budget", 67108864, 1, 1099511627776)
#define GPU_KEY_TIMING(N, L, E, B) E(timing, "core", "timing", gpu_timing_names, decoupled)
#define GPU_KEY_MODEL(N, L, E, B) E(model, "core", "model", gpu_model_names, mimd)
#define GPU_KEY_SM_REQ(N, L, E, B) L(sm_req, "sm", "req", 1, 0)
#define GPU_KEY_SM_BANK(N, L, E, B) L(sm_bank, "sm", "bank", 1, 1)
#define GPU_KEY_SM_RESP(N, L, E, B) L(sm_resp, "sm", "resp", 1, 0)
#define GPU_KEY_ARBITER(N, L, E, B) E(arbiter, "sm", "arbiter", gpu_arbiter_names, fixed)
#define GPU_KEY_BANK_MAP(N, L, E, B) E(bank_map, "sm", "bank_map", gpu_bank_map_names, high)
#define GPU_KEY_BANKS(N, L, E, B) N(banks, "sm", "banks", SM_BANKS_DEFAULT, 1, SM_BANKS_MAX)
#define GPU_KEY_ATOMICS(N, L, E, B) B(atomics, "sm", "atomics", off)
#define GPU_KEY_SIMT_SCHEDULER(N, L, E, B) E(simt_scheduler, "simt", "scheduler", simt_sched_names, rr)
#define GPU_KEY_SIMT_ISSUE_WIDTH(N, L, E, B) N(simt_issue_width, "simt", "issue_width", 1, 1, GPU_CORES)
#define GPU_KEY_SIMT_SCOREBOARD(N, L, E, B) B(simt_scoreboard, "simt", "scoreboard", off)
#define GPU_KEY_SIMT_BROADCAST(N, L, E, B) B(simt_broadcast, "simt", "broadcast", off)
#define GPU_KEY_SIMT_IBUFFER(N, L, E, B) N(simt_ibuffer, "simt", "ibuffer", 0, 0, SIMT_IBUFFER_MAX)
#define GPU_KEY_SIMT_FETCH_WIDTH(N, L, E, B) N(simt_fetch_width, "simt", "fetch_width", 2, 1, SIMT_FETCH_MAX)
#define GPU_KEY_SIMT_FETCH_LATENCY(N, L, E, B) N(simt_fetch_latency, "simt", "fetch_latency", 1, 1, 8)
#define GPU_KEY_SIMT_COLLECTORS(N, L, E, B) N(simt_collectors, "simt", "collectors", 0, 0, GPU_CORES)
#define GPU_KEY_SIMT_RF_BANKS(N, L, E, B) N(simt_rf_banks, "simt", "rf_banks", 4, 1, 16)
#define GPU_KEY_SIMT_RF_ARBITER(N, L, E, B) E(simt_rf_arbiter, "simt", "rf_arbiter", simt_rf_arbiter_names, oldest)
#define GPU_KEY_SIMT_SP_WIDTH(N, L, E, B) N(simt_sp_width, "simt", "sp_width", GPU_CORES, 1, GPU_CORES)
#define GPU_KEY_SIMT_SFU_WIDTH(N, L, E, B) N(simt_sfu_width, "simt", "sfu_width", GPU_CORES, 1, GPU_CORES)
#define GPU_KEY_SIMT_LSU_WIDTH(N, L, E, B) N(simt_lsu_width, "simt", "lsu_width", GPU_CORES, 1, GPU_CORES)
#define GPU_KEY_SIMT_RECONVERGENCE(N, L, E, B) E(simt_reconvergence, "simt", "reconvergence", gpu_reconv_names, stack)
#define GPU_KEY_SEED(N, L, E, B) N(seed, "sim", "seed", 1, 0, UINT64_MAX)

#define GPU_KEYS(N, L, E, B)                                                                 \
    GPU_KEY_PERIOD_PS(N, L, E, B) GPU_KEY_TS_DECODE(N, L, E, B) GPU_KEY_TS_XFER(N, L, E, B)  \
    GPU_KEY_TS_READY(N, L, E, B) GPU_KEY_POLICY(N, L, E, B) GPU_KEY_WINDOW(N, L, E, B)       \
    GPU_KEY_CORE_ALU(N, L, E, B) GPU_KEY_CORE_MUL(N, L, E, B) GPU_KEY_CORE_DIV(N, L, E, B)   \
    GPU_KEY_CORE_BRANCH(N, L, E, B) GPU_KEY_CORE_READY(N, L, E, B)                           \
    GPU_KEY_BUDGET(N, L, E, B) GPU_KEY_TIMING(N, L, E, B) GPU_KEY_MODEL(N, L, E, B)          \
    GPU_KEY_SM_REQ(N, L, E, B) GPU_KEY_SM_BANK(N, L, E, B) GPU_KEY_SM_RESP(N, L, E, B)       \
    GPU_KEY_ARBITER(N, L, E, B) GPU_KEY_BANK_MAP(N, L, E, B) GPU_KEY_BANKS(N, L, E, B)       \
    GPU_KEY_ATOMICS(N, L, E, B) GPU_KEY_SIMT_SCHEDULER(N, L, E, B)                           \
    GPU_KEY_SIMT_ISSUE_WIDTH(N, L, E, B) GPU_KEY_SIMT_SCOREBOARD(N, L, E, B)                 \
    GPU_KEY_SIMT_BROADCAST(N, L, E, B) GPU_KEY_SIMT_IBUFFER(N, L, E, B)                      \
    GPU_KEY_SIMT_FETCH_WIDTH(N, L, E, B) GPU_KEY_SIMT_FETCH_LATENCY(N, L, E, B)              \
    GPU_KEY_SIMT_COLLECTORS(N, L, E, B) GPU_KEY_SIMT_RF_BANKS(N, L, E, B)                    \
    GPU_KEY_SIMT_RF_ARBITER(N, L, E, B)                                                      \
    GPU_KEY_SIMT_SP_WIDTH(N, L, E, B) GPU_KEY_SIMT_SFU_WIDTH(N, L, E, B)                     \
    GPU_KEY_SIMT_LSU_WIDTH(N, L, E, B) GPU_KEY_SIMT_RECONVERGENCE(N, L, E, B)                \
    GPU_KEY_SEED(N, L, E, B)

/* A row's key as text: GPU_KEY_TEXT(GPU_KEY_BANKS) is "sm.banks". */
#define GPU_KEY_TEXT_(field, section, name, ...) section "." name
#define GPU_KEY_TEXT(ROW) ROW(GPU_KEY_TEXT_, GPU_KEY_TEXT_, GPU_KEY_TEXT_, GPU_KEY_TEXT_)

#endif
