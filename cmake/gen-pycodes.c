/* gen-pycodes.c — writes python/tessera/_codes.py at build time
 * (CMakeLists.txt): the result codes of events/base/err.h (TESS_ERRORS),
 * the run statuses of analysis/store/db.h (DB_STATUSES), the policy
 * plugins' interface version and kinds by key (api/tessera_policy.h,
 * model/policy.h's GPU_POINTS) and the layouts of the C structs the binding
 * passes through ctypes (api/tessera.h, api/tessera_policy.h: each field's
 * offset, size and kind as the compiler lays it out), the images' sizes and
 * the instructions with their operand formats (model/sizes.h, model/isa.h)
 * for the Python binding, so that nothing in Python retypes them. Usage:
 * gen-pycodes OUT */
#include <stddef.h>
#include <stdio.h>

#include "analysis/store/db.h"
#include "api/tessera.h"
#include "api/tessera_policy.h"
#include "events/base/err.h"
#include "model/gpu_keys.h"
#include "model/isa.h"
#include "model/policy.h"
#include "model/sizes.h"

/* --- the C structs, for ctypes ------------------------------------------- */

/* Each struct's fields in declaration order, checked by the compiler:
 * offsetof and sizeof name every one, a positional initializer with one
 * value per field must fill the struct (a field left out is an error:
 * missing-field-initializers, made one below; one too many, an excess
 * element), and layout() checks their order. */
#pragma GCC diagnostic error "-Wmissing-field-initializers"
#define COUNTERS_FIELDS(F, T)                                                                \
    F(T, period_ps) F(T, end_ps) F(T, now_ps) F(T, stop_ps) F(T, frames) F(T, tasks)         \
    F(T, core_tasks) F(T, instructions) F(T, sm_accesses) F(T, sm_conflicts)                 \
    F(T, sm_conflict_ps) F(T, events) F(T, wall_s) F(T, run_id)
#define HOST_FIELDS(F, T)                                                                    \
    F(T, abi) F(T, banks) F(T, period_ps) F(T, seed) F(T, param) F(T, random)                \
    F(T, random_below) F(T, fail) F(T, impl)
#define ARB_REQUEST_FIELDS(F, T)                                                             \
    F(T, requester) F(T, frame) F(T, is_store) F(T, sync) F(T, addr) F(T, request_ps)        \
    F(T, arrive_ps)
#define ARB_CALL_FIELDS(F, T) F(T, now_ps) F(T, cycle) F(T, bank) F(T, last) F(T, n) F(T, req)
#define WARP_FIELDS(F, T)                                                                    \
    F(T, slot) F(T, frame) F(T, lanes) F(T, ip) F(T, opcode) F(T, is_mem) F(T, mem_pending)  \
    F(T, age_ps) F(T, last_issue_ps) F(T, issued)
#define SCHED_CALL_FIELDS(F, T)                                                              \
    F(T, now_ps) F(T, cycle) F(T, width) F(T, n) F(T, warp) F(T, n_waiting) F(T, waiting)    \
    F(T, n_last) F(T, last)
#define POLICY_FIELDS(F, T)                                                                  \
    F(T, abi) F(T, kind) F(T, name) F(T, params) F(T, create) F(T, destroy) F(T, arbitrate)  \
    F(T, bank_of) F(T, schedule)
/* S(type, fields): every struct, a struct after those its pointers name */
#define PY_STRUCTS(S)                                                                        \
    S(tessera_counters_t, COUNTERS_FIELDS) S(tessera_host_t, HOST_FIELDS)                    \
    S(tessera_arb_request_t, ARB_REQUEST_FIELDS) S(tessera_arb_call_t, ARB_CALL_FIELDS)      \
    S(tessera_warp_t, WARP_FIELDS) S(tessera_sched_call_t, SCHED_CALL_FIELDS)                \
    S(tessera_policy_t, POLICY_FIELDS)

/* A field's kind: "u"/"i" an unsigned/signed integer and "f" a real (of the
 * field's size), "s" a C string, "p" an opaque pointer, "*NAME" a pointer to
 * NAME's (a struct of the table, "u8" or "s"), "fn" a function pointer (its
 * prototype is the binding's: ctypes cannot read it from here). */
#define C_KIND(x)                                                                            \
    _Generic((x), signed char: "i", short: "i", int: "i", long: "i", long long: "i",         \
             unsigned char: "u", unsigned short: "u", unsigned: "u", unsigned long: "u",     \
             unsigned long long: "u", float: "f", double: "f", const char *: "s",            \
             void *: "p", const char *const *: "*s", const uint8_t *: "*u8",                 \
             const tessera_arb_request_t *: "*tessera_arb_request_t",                        \
             const tessera_warp_t *: "*tessera_warp_t", default: "fn")

typedef struct field {
    const char *name, *kind;
    size_t offset, size;
} field_t;

/* Writes one struct's entry of STRUCTS; 1 (and a message) when its fields
 * are not listed in their order. */
static int layout(FILE *f, const char *type, size_t size, const field_t *fl, size_t n)
{
    fprintf(f, "    \"%s\": (%zu, (\n", type, size);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && fl[i].offset < fl[i - 1].offset + fl[i - 1].size) {
            fprintf(stderr, "gen-pycodes: %s: %s is listed after %s, not before it\n", type,
                    fl[i].name, fl[i - 1].name);
            return 1;
        }
        fprintf(f, "        (\"%s\", %zu, %zu, \"%s\"),\n", fl[i].name, fl[i].offset, fl[i].size,
                fl[i].kind);
    }
    fprintf(f, "    )),\n");
    return 0;
}

/* STRUCTS = {C type: (sizeof, ((field, offset, size, kind), ...))} */
static int structs(FILE *f)
{
    int bad = 0;
    fprintf(f, "\n# The C structs the binding passes through ctypes (api/tessera.h,\n"
               "# api/tessera_policy.h), as the compiler lays them out: {type: (size,\n"
               "# ((field, offset, size, kind), ...))}, kind \"u\"/\"i\" an unsigned/signed\n"
               "# integer, \"f\" a real, \"s\" a C string, \"p\" an opaque pointer, \"*NAME\" a\n"
               "# pointer to NAME, \"fn\" a function pointer (python/tessera/_structs.py)\n"
               "STRUCTS = {\n");
#define FIELD(T, f) {#f, C_KIND(((T *)0)->f), offsetof(T, f), sizeof(((T *)0)->f)},
#define ZERO(T, f) 0,
#define STRUCT(T, FIELDS)                                                                    \
    {                                                                                        \
        static const field_t fl[] = {FIELDS(FIELD, T)};                                      \
        static const T every_field = {FIELDS(ZERO, T)};                                      \
        (void)every_field;                                                                   \
        bad |= layout(f, #T, sizeof(T), fl, sizeof fl / sizeof fl[0]);                       \
    }
    PY_STRUCTS(STRUCT)
    fprintf(f, "}\n");
    return bad;
}

/* tessera.Program's facts: the images' sizes (model/sizes.h) and the
 * instructions with their operand formats (ISA_OPS, model/isa.h) */
static void program(FILE *f)
{
    fprintf(f, "\n# the Task Memory and SM images' sizes (model/sizes.h)\n"
               "TM_BYTES = %d\nSM_BYTES = %d\n", (int)TM_BYTES, (int)SM_BYTES);
    fprintf(f, "\n# the instructions (model/isa.h, ISA_OPS): (mnemonic, operand format ISA_FMT_*)\n"
               "OPS = (\n");
#define OP(id, code, name, fmt, cls) fprintf(f, "    (\"%s\", \"%s\"),\n", name, &#fmt[sizeof "ISA_FMT_" - 1]);
    ISA_OPS(OP)
    fprintf(f, ")\n");
}

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-pycodes OUT.py (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "\"\"\"_codes.py — the result codes of events/base/err.h (TESS_ERRORS), the\n"
               "command's exit codes, the run statuses of analysis/store/db.h\n"
               "(DB_STATUSES, runs.status), the policy plugins' interface version and\n"
               "kinds, the images' sizes and the instructions, and the layouts of the C\n"
               "structs of api/; generated at build time by cmake/gen-pycodes.c: do\n"
               "not edit.\"\"\"\n\n");
#define CONST(id, value, name, word, meaning) fprintf(f, "%s = %d\n", #id, value);
    TESS_ERRORS(CONST)
    fprintf(f, "\nNAMES = {\n");
#define NAME(id, value, name, word, meaning) fprintf(f, "    %d: \"%s\",\n", value, name);
    TESS_ERRORS(NAME)
    fprintf(f, "}\n\n");
#define STATUS(id, name, meaning) fprintf(f, "STATUS_%s = \"%s\"\n", #id, name);
    DB_STATUSES(STATUS)
    fprintf(f, "\nSTATUSES = (\n");
#define STATUS_NAME(id, name, meaning) fprintf(f, "    \"%s\",\n", name);
    DB_STATUSES(STATUS_NAME)
    fprintf(f, ")\n\nPOLICY_ABI = %d\n\nPOLICY_KINDS = {\n", TESSERA_POLICY_ABI);
#define KIND(id, kind, row) fprintf(f, "    \"%s\": %d,\n", GPU_KEY_TEXT(row), (int)(kind));
    GPU_POINTS(KIND)
    fprintf(f, "}\n");
#define KIND_ID(id, kind, row) fprintf(f, "POLICY_%s = %d\n", #id, (int)(kind));
    GPU_POINTS(KIND_ID)
    program(f);
    int bad = structs(f);
    return fclose(f) == 0 && !bad ? 0 : 1;
}
