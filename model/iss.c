/* iss.c — the untimed reference executor (see iss.h). It shares every
 * instruction's semantics with the timed core through isa_exec(). */
#include "model/iss.h"

#include <string.h>

#include "events/base/err.h"

/* Runs one core's task to its end; returns TESS_OK or TESS_EWATCHDOG. */
static int run_core_task(const uint16_t code[TM_SLOTS], unsigned frame, unsigned core,
                         arch_state_t *st, const iss_desc_t *desc, iss_stats_t *stats,
                         diag_t *diag)
{
    uint64_t budget = desc->budget ? desc->budget : ARCH_DEFAULT_BUDGET;
    static const uint64_t untimed[ISA_CLASS_LOCAL];
    isa_decoded_t decoded[TM_SLOTS];
    isa_decode_frame(code, decoded);
    isa_run_t run = {.code = decoded, .lat = untimed, .budget = budget};
    for (;;) {
        isa_stop_t stop = isa_run(st->regs[core], core, &run);
        if (stop == ISA_STOP_BUDGET) {
            stats->instructions += run.n;
            stats->div_by_zero += run.div_by_zero;
            return diag_fail(diag, TESS_EWATCHDOG,
                             "watchdog: frame %u, core %u, IP %u: task exceeded its budget of "
                             "%llu instructions (D12)",
                             frame, core, run.ip, (unsigned long long)budget);
        }
        if (stop == ISA_STOP_FINISHED)
            break;
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
                int rc = run_core_task(tm->code[f], f, c, st, desc, stats, diag);
                if (rc != TESS_OK)
                    return rc;
            }
        }
    }
    return TESS_OK;
}
