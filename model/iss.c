/* iss.c — the untimed reference executor (see iss.h). It shares every
 * instruction's semantics with the timed core through isa_exec(). */
#include "model/iss.h"

#include <string.h>

#include "events/base/err.h"
#include "model/gpu.h"

/* Where the trace is (iss_desc_t's, resolved). */
typedef struct tracer {
    itrace_fn fn;
    void *user;
    unsigned banks, map;
    uint64_t n;               /* instructions before the current core task */
} tracer_t;

/* Reports the instruction in slot `ip`, the run's n-th (from 1). */
static void trace_insn(const tracer_t *tr, const isa_decoded_t *code, unsigned ip,
                       unsigned frame, unsigned core, const isa_run_t *run, const uint8_t *sm,
                       const uint8_t regs[ISA_REGS])
{
    const isa_decoded_t *d = &code[ip];
    uint16_t word = isa_make(d->op, d->a, d->b, d->c);
    itrace_rec_t r = {
        .when = tr->n + run->n - 1, .frame = (uint8_t)frame, .unit = (uint8_t)core,
        .lanes = 1, .slot = (uint8_t)ip, .word = word, .wmask = itrace_writes(word),
        .regs = (const uint8_t(*)[ISA_REGS])regs,
    };
    if (d->op == ISA_LD || d->op == ISA_ST) {
        const isa_step_t *s = &run->last;
        r.mem = true;
        r.store = d->op == ISA_ST;
        r.addr[0] = s->addr;
        r.bank[0] = (uint8_t)gpu_bank_of(tr->map, tr->banks, s->addr);
        r.value[0] = sm[s->addr];
    }
    tr->fn(tr->user, &r);
}

/* Runs one core's task to its end; returns TESS_OK or TESS_EWATCHDOG. A
 * traced task runs one instruction at a time, each reported once done. */
static int run_core_task(const uint16_t code[TM_SLOTS], unsigned frame, unsigned core,
                         arch_state_t *st, const iss_desc_t *desc, iss_stats_t *stats,
                         const tracer_t *tr, diag_t *diag)
{
    uint64_t budget = desc->budget ? desc->budget : ARCH_DEFAULT_BUDGET;
    static const uint64_t untimed[ISA_CLASS_LOCAL];
    isa_decoded_t decoded[ISA_TASK_SLOTS];
    isa_decode_task(code, decoded);
    isa_run_t run = {.code = decoded, .lat = untimed, .budget = budget};
    for (;;) {
        unsigned ip = run.ip;
        uint64_t n = run.n;
        if (tr)
            run.budget = n < budget ? n + 1 : budget;
        isa_stop_t stop = isa_run(st->regs[core], core, &run);
        if (stop == ISA_STOP_BUDGET && run.n < budget) { /* traced: one instruction ran */
            trace_insn(tr, decoded, ip, frame, core, &run, st->sm, st->regs[core]);
            continue;
        }
        if (stop == ISA_STOP_BUDGET) {
            if (tr && run.n > n)
                trace_insn(tr, decoded, ip, frame, core, &run, st->sm, st->regs[core]);
            stats->instructions += run.n;
            stats->div_by_zero += run.div_by_zero;
            return diag_fail(diag, TESS_EWATCHDOG,
                             "watchdog: frame %u, core %u, IP %u: task exceeded its budget of "
                             "%llu instructions (D12)",
                             frame, core, run.ip, (unsigned long long)budget);
        }
        if (stop == ISA_STOP_FINISHED) {
            if (tr)
                trace_insn(tr, decoded, ip, frame, core, &run, st->sm, st->regs[core]);
            break;
        }
        const isa_step_t *s = &run.last; /* a ld or st, performed at once */
        if (desc->races)
            race_access(desc->races, frame, core, run.ip, s->cls == ISA_CLASS_ST,
                        s->sync && desc->atomics, s->addr);
        if (s->cls == ISA_CLASS_LD) {
            isa_ld_complete(st->regs[core], s, st->sm[s->addr]);
            stats->loads++;
        } else {
            st->sm[s->addr] = s->value;
            stats->stores++;
        }
        if (tr)
            trace_insn(tr, decoded, run.ip, frame, core, &run, st->sm, st->regs[core]);
        if (s->finished)
            break;
        run.ip++; /* ld and st never branch */
    }
    stats->instructions += run.n;
    stats->div_by_zero += run.div_by_zero;
    return TESS_OK;
}

int iss_run(const tm_program_t *tm, arch_state_t *st, const iss_desc_t *desc,
            iss_stats_t *stats, diag_t *diag)
{
    static const iss_desc_t defaults;
    desc = desc ? desc : &defaults;
    tracer_t tracer = {0}, *tr = NULL;
    if (desc->itrace) {
        tracer = (tracer_t){desc->itrace, desc->itrace_user,
                            desc->banks ? desc->banks : SM_BANKS_DEFAULT, desc->bank_map, 0};
        tr = &tracer;
    }
    memset(stats, 0, sizeof *stats);
    for (unsigned g = 0; g < tm->n_groups; g++) {
        const tm_group_t *grp = &tm->groups[g];
        arch_init_r0(st, grp, 0xffff);
        for (unsigned f = grp->cf + 1u; f <= grp->cf + (unsigned)grp->if_num; f++) {
            stats->tasks++;
            for (unsigned c = 0; c < GPU_CORES; c++) {
                if (!(grp->cores & (1u << c)))
                    continue;
                stats->core_tasks++;
                if (tr)
                    tracer.n = stats->instructions;
                int rc = run_core_task(tm->code[f], f, c, st, desc, stats, tr, diag);
                if (rc != TESS_OK)
                    return rc;
            }
        }
    }
    return TESS_OK;
}
