/* embed.c — Tessera embedded in a C program: assemble a kernel from a string,
 * run it through the timed model twice (two SM arbiters on a slow bank), and read the
 * results and a timeline record from the model's trace hook — no files, no
 * database. Build (from the repository, after building the library):
 *
 *   cc -std=c11 examples/embed.c $(pkg-config --cflags --libs build/tessera.pc) -o embed
 *
 * CMake builds it as the target `embed_example`, and a test runs it. */
#include <stdio.h>
#include <string.h>

#include "events/sim.h"
#include "model/asm.h"
#include "model/gpu.h"
#include "model/gpu_trace.h"

/* Four cores add 1 to their own byte of bank 0, 100 times, then stop. */
static const char kernel[] =
    ".group cores=0x000f\n"
    "  set_const r1, id        ; r1 = core id = the byte this core owns\n"
    "  set_const r8, 0         ; r8 = bank 0\n"
    "  set_const r9, 100       ; r9 = iterations\n"
    "  set_const r10, 1\n"
    "loop:\n"
    "  ld [r1, r8], r2\n"
    "  add r2, r10, r2\n"
    "  st [r1, r8], r2\n"
    "  sub r9, r10, r9\n"
    "  bnz loop, r9\n"
    "  ready\n";

/* The trace hook: keep the latest READY time of each core. */
typedef struct watch {
    sim_time_t ready_ps[GPU_CORES];
} watch_t;

static void on_record(void *user, unsigned kind, const void *record)
{
    watch_t *w = user;
    if (kind == GPU_TR_CORE_TASK) {
        const gpu_tr_core_task_t *t = record;
        w->ready_ps[t->core] = t->ready_ps;
    }
}

/* Runs `prog` with arbiter `arb`; returns 0 on success. */
static int run_once(const program_t *prog, gpu_arbiter_t arb, const char *name)
{
    gpu_desc_t desc;
    gpu_desc_default(&desc);          /* the reference timing of spec §6 … */
    desc.sm_bank = lat_fixed(4);      /* … with a slow bank, so that a queue forms */
    desc.arbiter = (uint8_t)arb;
    diag_t diag = {0};
    sim_t *sim = sim_create();
    gpu_t *gpu = sim ? gpu_create(sim, &desc, prog, &diag) : NULL;
    if (!gpu) {
        fprintf(stderr, "cannot build the model: %s\n", diag.msg);
        sim_destroy(sim);
        return 1;
    }
    watch_t watch = {{0}};
    sim_set_hook(sim, on_record, &watch);
    gpu_set_trace(gpu, GPU_TRACE_TASKS);
    gpu_start(gpu);
    while (sim_run(sim, SIM_TIME_NEVER, 1u << 16) > 0) /* or sim_drive() under libev */
        ;
    gpu_finish(gpu);
    gpu_stats_t st;
    arch_state_t arch;
    gpu_stats(gpu, &st);
    gpu_arch_state(gpu, &arch);
    printf("%-6s %s: end %llu ps, %llu instructions, %llu SM accesses, %llu waited; "
           "SM[0..3] = %u %u %u %u; READY of core 0 at %llu ps, core 3 at %llu ps\n",
           name, gpu_outcome(gpu) == GPU_DONE ? "done" : "not done",
           (unsigned long long)st.end_ps, (unsigned long long)st.instructions,
           (unsigned long long)st.sm_accesses, (unsigned long long)st.sm_conflicts,
           arch.sm[0], arch.sm[1], arch.sm[2], arch.sm[3],
           (unsigned long long)watch.ready_ps[0], (unsigned long long)watch.ready_ps[3]);
    int rc = gpu_outcome(gpu) == GPU_DONE ? 0 : 1;
    gpu_destroy(gpu);
    sim_destroy(sim);
    return rc;
}

int main(void)
{
    static asm_output_t out; /* large: keep it off the stack */
    diag_t diag = {0};
    if (asm_assemble(&out, kernel, strlen(kernel), "kernel.s", &diag) != 0) {
        fprintf(stderr, "%s\n", diag.msg);
        return 1;
    }
    static program_t prog;
    prog.tm = out.prog;
    tm_encode(&prog.tm, prog.image);
    return run_once(&prog, GPU_ARB_FIXED, "fixed") | run_once(&prog, GPU_ARB_RR, "rr");
}
