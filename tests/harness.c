/* harness.c — the timed model inside tests (see harness.h). */
#include "tests/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/asm.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

void h_assemble(program_t *p, const char *src)
{
    asm_output_t *o = malloc(sizeof *o);
    diag_t d = {0};
    memset(p, 0, sizeof *p);
    int rc = asm_assemble(o, src, strlen(src), "test.s", &d);
    if (rc != TESS_OK)
        fprintf(stderr, "fixture does not assemble: %s\n", d.msg);
    CU_ASSERT_FATAL(rc == TESS_OK);
    p->tm = o->prog;
    for (unsigned i = 0; i < SM_BYTES; i++)
        if (o->sm_set[i])
            p->sm[i] = o->sm[i];
    tm_encode(&p->tm, p->image);
    free(o);
}

static void *grow(void *buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return buf;
    *cap = *cap ? *cap * 2 : 256;
    void *nb = realloc(buf, *cap * elem);
    if (!nb)
        abort();
    return nb;
}

static void hook(void *user, unsigned kind, const void *rec)
{
    h_run_t *r = user;
    switch (kind) {
    case GPU_TR_FRAME: {
        const gpu_tr_frame_t *f = rec;
        r->frames[f->frame] = *f;
        r->have_frame[f->frame] = true;
        break;
    }
    case GPU_TR_STALL:
        if (r->n_stalls < H_MAX_STALLS)
            r->stalls[r->n_stalls++] = *(const gpu_tr_stall_t *)rec;
        break;
    case GPU_TR_CORE_TASK:
        r->tasks = grow(r->tasks, &r->cap_tasks, r->n_tasks + 1, sizeof *r->tasks);
        r->tasks[r->n_tasks++] = *(const gpu_tr_core_task_t *)rec;
        break;
    case GPU_TR_ACCESS:
        r->accesses = grow(r->accesses, &r->cap_accesses, r->n_accesses + 1,
                           sizeof *r->accesses);
        r->accesses[r->n_accesses++] = *(const gpu_tr_access_t *)rec;
        break;
    case GPU_TR_SIMT_WARP:
        r->warps = grow(r->warps, &r->cap_warps, r->n_warps + 1, sizeof *r->warps);
        r->warps[r->n_warps++] = *(const gpu_tr_simt_warp_t *)rec;
        break;
    case GPU_TR_SIMT_MEM:
        r->mems = grow(r->mems, &r->cap_mems, r->n_mems + 1, sizeof *r->mems);
        r->mems[r->n_mems++] = *(const gpu_tr_simt_mem_t *)rec;
        break;
    case GPU_TR_SIMT_ISSUE:
        r->issues = grow(r->issues, &r->cap_issues, r->n_issues + 1, sizeof *r->issues);
        r->issues[r->n_issues++] = *(const gpu_tr_simt_issue_t *)rec;
        break;
    case GPU_TR_SLOT:
        r->slots = grow(r->slots, &r->cap_slots, r->n_slots + 1, sizeof *r->slots);
        r->slots[r->n_slots++] = *(const gpu_tr_slot_t *)rec;
        break;
    case GPU_TR_SIMT_WAIT:
        r->waits = grow(r->waits, &r->cap_waits, r->n_waits + 1, sizeof *r->waits);
        r->waits[r->n_waits++] = *(const gpu_tr_simt_wait_t *)rec;
        break;
    case GPU_TR_COUNTER: {
        const gpu_tr_counter_t *c = rec;
        unsigned core;
        char rest[2];
        if (sscanf(c->component, GEN_UNIT_CORE "%u%1s", &core, rest) == 1 && core < GPU_CORES) {
            if (!strcmp(c->name, GEN_CTR_CORE_BUSY_PS))
                r->core_busy_ps[core] = c->value;
            else if (!strcmp(c->name, GEN_CTR_CORE_SM_WAIT_PS))
                r->core_sm_wait_ps[core] = c->value;
            else if (!strcmp(c->name, GEN_CTR_CORE_INSTRUCTIONS))
                r->core_instructions[core] = c->value;
        }
        if (!strcmp(c->component, GEN_UNIT_SIMT) && r->n_simt_counters < 32) {
            /* the name lives only as long as the call (unit.c builds the stall
               counters' names in a buffer of its own): copied, never kept */
            char *name = r->simt_counter_name[r->n_simt_counters];
            size_t len = strlen(c->name);
            CU_ASSERT_FATAL(len < sizeof r->simt_counter_name[0]);
            memcpy(name, c->name, len + 1);
            r->simt_counter[r->n_simt_counters++] = c->value;
        }
        break;
    }
    default:
        break;
    }
}

/* The slot profile's invariant (gpu_trace.h, gpu_tr_slot_t), checked on
 * every run of the harness: MIMD, a core's slots sum to its busy_ps,
 * sm_wait_ps and instructions counters; SIMT, a frame's slots to its warps'
 * issued cycles, stall cycles by reason and lane instructions. */
static void check_slots(const h_run_t *r)
{
    if (!r->simt) {
        for (unsigned c = 0; c < GPU_CORES; c++) {
            uint64_t busy = 0, wait = 0, n = 0;
            for (size_t i = 0; i < r->n_slots; i++)
                if (r->slots[i].core == c) {
                    busy += r->slots[i].execute_ps + r->slots[i].sm_wait_ps;
                    wait += r->slots[i].sm_wait_ps;
                    n += r->slots[i].instructions;
                }
            if (busy != r->core_busy_ps[c] || wait != r->core_sm_wait_ps[c] ||
                n != r->core_instructions[c])
                fprintf(stderr, "slot profile of core %u: busy %llu/%llu, wait %llu/%llu, "
                        "instructions %llu/%llu\n", c, (unsigned long long)busy,
                        (unsigned long long)r->core_busy_ps[c], (unsigned long long)wait,
                        (unsigned long long)r->core_sm_wait_ps[c], (unsigned long long)n,
                        (unsigned long long)r->core_instructions[c]);
            CU_ASSERT_EQUAL(busy, r->core_busy_ps[c]);
            CU_ASSERT_EQUAL(wait, r->core_sm_wait_ps[c]);
            CU_ASSERT_EQUAL(n, r->core_instructions[c]);
        }
        return;
    }
    for (unsigned f = 0; f < H_MAX_FRAMES; f++) {
        uint64_t want[GPU_SIMT_STALLS + 2] = {0}, got[GPU_SIMT_STALLS + 2] = {0};
        for (size_t i = 0; i < r->n_warps; i++)
            if (r->warps[i].frame == f) {
                for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
                    want[k] += r->warps[i].stall_cycles[k];
                want[GPU_SIMT_STALLS] += r->warps[i].issued_cycles;
                want[GPU_SIMT_STALLS + 1] += r->warps[i].lane_instructions;
            }
        for (size_t i = 0; i < r->n_slots; i++)
            if (r->slots[i].frame == f) {
                CU_ASSERT_EQUAL(r->slots[i].core, GPU_SLOT_SIMT);
                for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
                    got[k] += r->slots[i].stall_cycles[k];
                got[GPU_SIMT_STALLS] += r->slots[i].issued_cycles;
                got[GPU_SIMT_STALLS + 1] += r->slots[i].lane_instructions;
            }
        for (unsigned k = 0; k < GPU_SIMT_STALLS + 2; k++) {
            if (want[k] != got[k])
                fprintf(stderr, "slot profile of frame %u: figure %u is %llu, its warps' %llu\n",
                        f, k, (unsigned long long)got[k], (unsigned long long)want[k]);
            CU_ASSERT_EQUAL(got[k], want[k]);
        }
    }
}

const gpu_tr_slot_t *h_slot(const h_run_t *r, unsigned frame, unsigned core, unsigned slot)
{
    for (size_t i = 0; i < r->n_slots; i++)
        if (r->slots[i].frame == frame && r->slots[i].core == core && r->slots[i].slot == slot)
            return &r->slots[i];
    return NULL;
}

h_run_t *h_run(const program_t *p, const gpu_desc_t *desc)
{
    return h_run_itrace(p, desc, NULL, NULL);
}

h_run_t *h_run_itrace(const program_t *p, const gpu_desc_t *desc, itrace_fn fn, void *user)
{
    gpu_desc_t def;
    if (!desc) {
        gpu_desc_default(&def);
        desc = &def;
    }
    h_run_t *r = calloc(1, sizeof *r);
    r->simt = desc->model == GPU_MODEL_SIMT;
    r->stalls = calloc(H_MAX_STALLS, sizeof *r->stalls);
    sim_t *sim = sim_create();
    diag_t d = {0};
    gpu_t *g = gpu_create(sim, desc, p, &d);
    if (!g)
        fprintf(stderr, "gpu_create: %s\n", d.msg);
    CU_ASSERT_FATAL(g != NULL);
    sim_set_hook(sim, hook, r);
    gpu_set_trace(g, GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES | GPU_TRACE_WARPS |
                         GPU_TRACE_ISSUE | GPU_TRACE_SLOTS);
    if (fn)
        gpu_set_itrace(g, fn, user);
    gpu_start(g);
    while (sim_run(sim, SIM_TIME_NEVER, 1u << 20) > 0 && sim_stop_reason(sim) == SIM_END_NONE)
        ;
    gpu_finish(g);
    r->outcome = gpu_outcome(g);
    snprintf(r->errmsg, sizeof r->errmsg, "%s", gpu_errmsg(g));
    gpu_stats(g, &r->stats);
    gpu_arch_state(g, &r->arch);
    r->events = sim_events_run(sim);
    gpu_destroy(g);
    sim_destroy(sim);
    check_slots(r);
    return r;
}

h_run_t *h_run_src(const char *src, const gpu_desc_t *desc)
{
    program_t *p = malloc(sizeof *p);
    h_assemble(p, src);
    h_run_t *r = h_run(p, desc);
    free(p);
    return r;
}

void h_free(h_run_t *r)
{
    if (!r)
        return;
    free(r->stalls);
    free(r->tasks);
    free(r->accesses);
    free(r->warps);
    free(r->mems);
    free(r->issues);
    free(r->slots);
    free(r->waits);
    free(r);
}

const gpu_tr_access_t *h_access(const h_run_t *r, unsigned core, unsigned k)
{
    for (size_t i = 0; i < r->n_accesses; i++)
        if (r->accesses[i].core == core && k-- == 0)
            return &r->accesses[i];
    return NULL;
}

const gpu_tr_core_task_t *h_task(const h_run_t *r, unsigned frame, unsigned core)
{
    for (size_t i = 0; i < r->n_tasks; i++)
        if (r->tasks[i].frame == frame && r->tasks[i].core == core)
            return &r->tasks[i];
    return NULL;
}

const gpu_tr_simt_warp_t *h_warp(const h_run_t *r, unsigned frame)
{
    for (size_t i = 0; i < r->n_warps; i++)
        if (r->warps[i].frame == frame)
            return &r->warps[i];
    return NULL;
}

const gpu_tr_simt_warp_t *h_warp_of(const h_run_t *r, unsigned frame)
{
    static const gpu_tr_simt_warp_t none;
    const gpu_tr_simt_warp_t *w = h_warp(r, frame);
    CU_ASSERT_PTR_NOT_NULL(w);
    if (!w)
        fprintf(stderr, "no warp record of frame %u\n", frame);
    return w ? w : &none;
}

uint64_t h_simt_counter(const h_run_t *r, const char *name)
{
    for (size_t i = 0; i < r->n_simt_counters; i++)
        if (!strcmp(r->simt_counter_name[i], name))
            return r->simt_counter[i];
    return UINT64_MAX;
}

static bool same_access(const gpu_tr_access_t *a, const gpu_tr_access_t *b)
{
    return a->frame == b->frame && a->core == b->core && a->is_store == b->is_store &&
           a->addr == b->addr && a->value == b->value && a->bank == b->bank &&
           a->request_ps == b->request_ps && a->arrive_ps == b->arrive_ps &&
           a->grant_ps == b->grant_ps && a->done_ps == b->done_ps;
}

static bool same_accesses(const h_run_t *a, const h_run_t *b)
{
    for (unsigned c = 0; c < GPU_CORES; c++) {
        for (unsigned k = 0;; k++) {
            const gpu_tr_access_t *x = h_access(a, c, k), *y = h_access(b, c, k);
            if (!x && !y)
                break;
            if (!x || !y || !same_access(x, y)) {
                fprintf(stderr, "access %u of core %u differs (%s)\n", k, c,
                        !x || !y ? "missing" : "fields");
                return false;
            }
        }
    }
    return true;
}

static bool same_task(const gpu_tr_core_task_t *x, const gpu_tr_core_task_t *y)
{
    return x->start_ps == y->start_ps && x->finish_ps == y->finish_ps &&
           x->ready_ps == y->ready_ps && x->instructions == y->instructions &&
           x->sm_ops == y->sm_ops && x->sm_wait_ps == y->sm_wait_ps &&
           x->sm_conflict_ps == y->sm_conflict_ps && x->complete == y->complete;
}

/* SIMT: the same warp records (any order) and the same issue sequence. */
static bool same_simt(const h_run_t *a, const h_run_t *b)
{
    if (!a->simt || !b->simt)
        return true; /* MIMD against SIMT (or MIMD): only the shared records compare */
    if (a->n_warps != b->n_warps || a->n_issues != b->n_issues || a->n_mems != b->n_mems ||
        a->n_waits != b->n_waits) {
        fprintf(stderr, "SIMT record counts differ\n");
        return false;
    }
    for (size_t i = 0; i < a->n_warps; i++) {
        const gpu_tr_simt_warp_t *y = h_warp(b, a->warps[i].frame);
        const gpu_tr_simt_warp_t *x = &a->warps[i];
        if (!y || x->start_ps != y->start_ps || x->end_ps != y->end_ps ||
            x->warp_instructions != y->warp_instructions ||
            x->lane_instructions != y->lane_instructions ||
            memcmp(x->stall_cycles, y->stall_cycles, sizeof x->stall_cycles) != 0 ||
            x->replays != y->replays || x->max_stack_depth != y->max_stack_depth) {
            fprintf(stderr, "warp (frame %u) differs\n", a->warps[i].frame);
            if (y) {
                fprintf(stderr, "  start %llu/%llu end %llu/%llu instr %llu/%llu stalls",
                        (unsigned long long)x->start_ps, (unsigned long long)y->start_ps,
                        (unsigned long long)x->end_ps, (unsigned long long)y->end_ps,
                        (unsigned long long)x->warp_instructions,
                        (unsigned long long)y->warp_instructions);
                for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
                    fprintf(stderr, " %s %llu/%llu", gpu_simt_stall_name(k),
                            (unsigned long long)x->stall_cycles[k],
                            (unsigned long long)y->stall_cycles[k]);
                fprintf(stderr, "\n");
            }
            return false;
        }
    }
    for (size_t i = 0; i < a->n_issues; i++) {
        const gpu_tr_simt_issue_t *x = &a->issues[i], *y = &b->issues[i];
        if (x->time_ps != y->time_ps || x->frame != y->frame || x->slot != y->slot ||
            x->active != y->active || x->order != y->order || x->eligible != y->eligible ||
            x->depth != y->depth) {
            fprintf(stderr, "issue record %zu differs\n", i);
            return false;
        }
    }
    for (size_t i = 0; i < a->n_waits; i++) {
        const gpu_tr_simt_wait_t *x = &a->waits[i], *y = &b->waits[i];
        if (x->frame != y->frame || x->slot != y->slot || x->lanes != y->lanes ||
            x->from_ps != y->from_ps || x->to_ps != y->to_ps) {
            fprintf(stderr, "barrier wait record %zu differs\n", i);
            return false;
        }
    }
    return true;
}

bool h_same_timeline(const h_run_t *a, const h_run_t *b)
{
    if (a->n_tasks != b->n_tasks || a->n_accesses != b->n_accesses) {
        fprintf(stderr, "record counts differ: %zu/%zu tasks, %zu/%zu accesses\n", a->n_tasks,
                b->n_tasks, a->n_accesses, b->n_accesses);
        return false;
    }
    for (unsigned f = 0; f < H_MAX_FRAMES; f++) {
        const gpu_tr_frame_t *x = &a->frames[f], *y = &b->frames[f];
        if (a->have_frame[f] != b->have_frame[f] || x->decode_ps != y->decode_ps ||
            x->issue_ps != y->issue_ps || x->start_ps != y->start_ps ||
            x->complete_ps != y->complete_ps) {
            fprintf(stderr, "frame %u differs\n", f);
            return false;
        }
    }
    for (size_t i = 0; i < a->n_tasks; i++) {
        const gpu_tr_core_task_t *y = h_task(b, a->tasks[i].frame, a->tasks[i].core);
        if (!y || !same_task(&a->tasks[i], y)) {
            fprintf(stderr, "core task (frame %u, core %u) differs\n", a->tasks[i].frame,
                    a->tasks[i].core);
            return false;
        }
    }
    return same_accesses(a, b) && same_simt(a, b) && a->stats.end_ps == b->stats.end_ps &&
           a->stats.instructions == b->stats.instructions;
}

void h_check_counting(const h_run_t *r)
{
    for (size_t i = 0; i < r->n_warps; i++) {
        const gpu_tr_simt_warp_t *w = &r->warps[i];
        uint64_t sum = w->issued_cycles;
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
            sum += w->stall_cycles[k];
        CU_ASSERT_EQUAL(sum, w->resident_cycles);
        CU_ASSERT_EQUAL(w->issued_cycles, w->warp_instructions);
        if (w->complete)
            CU_ASSERT_EQUAL(w->resident_cycles * 1000, w->end_ps - w->start_ps);
    }
}

h_run_t *h_run_simt_done(const char *src, const gpu_desc_t *desc)
{
    h_run_t *r = h_run_src(src, desc);
    CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
    if (r->outcome != GPU_DONE)
        fprintf(stderr, "run: %s\n", r->errmsg);
    h_check_counting(r);
    return r;
}

gpu_desc_t h_desc(unsigned timing, bool simt)
{
    gpu_desc_t d;
    gpu_desc_default(&d);
    d.timing = (uint8_t)timing;
    if (simt)
        d.model = GPU_MODEL_SIMT;
    return d;
}

void h_assert_lane(const h_run_t *r, unsigned frame, unsigned lane, sim_time_t finish,
                   uint64_t instructions)
{
    const gpu_tr_core_task_t *t = h_task(r, frame, lane);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->finish_ps, finish);
    CU_ASSERT_EQUAL(t->ready_ps, finish + 1000);
    CU_ASSERT_EQUAL(t->instructions, instructions);
    if (t->finish_ps != finish)
        fprintf(stderr, "lane %u finishes at %llu, not %llu\n", lane,
                (unsigned long long)t->finish_ps / 1000, (unsigned long long)finish / 1000);
}

unsigned h_issues(const h_run_t *r, unsigned f, unsigned *at, unsigned *slot, unsigned *lanes,
                  unsigned max)
{
    unsigned n = 0;
    for (size_t i = 0; i < r->n_issues && n < max; i++) {
        const gpu_tr_simt_issue_t *x = &r->issues[i];
        if (x->frame != f)
            continue;
        if (at)
            at[n] = (unsigned)(x->time_ps / 1000);
        if (slot)
            slot[n] = x->slot;
        if (lanes)
            lanes[n] = x->active;
        n++;
    }
    return n;
}

bool h_issued_at(const h_run_t *r, unsigned f, const unsigned *want, unsigned n)
{
    unsigned at[256];
    unsigned got = h_issues(r, f, at, NULL, NULL, 256);
    bool same = got == n && memcmp(at, want, n * sizeof *at) == 0;
    if (!same) {
        fprintf(stderr, "frame %u issued at", f);
        for (unsigned i = 0; i < got; i++)
            fprintf(stderr, " %u", at[i]);
        fprintf(stderr, "; want");
        for (unsigned i = 0; i < n; i++)
            fprintf(stderr, " %u", want[i]);
        fprintf(stderr, "\n");
    }
    return same;
}

const char *h_example_src(const char *fence0)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             ".group cores=0x0f0f fence=%s\n set_const r8, 1\n.task\n set_const r8, 2\n"
             ".task\n set_const r8, 3\n.task\n set_const r8, 4\n"
             ".group cores=0xf0f0 fence=acq\n set_const r8, 5\n.task\n set_const r8, 6\n",
             fence0);
    return buf;
}

const char H_CONTENTION_SRC[] = ".group cores=0xf\n"
                                " set_const r2, id\n set_const r10, 1\n set_const r11, 4\n"
                                " sub r11, r2, r2\n"
                                "wait:\n sub r2, r10, r2\n bnz wait, r2\n"
                                " ld [r1, r1], r3\n ld [r1, r1], r3\n ready\n";

void h_grant_order(const h_run_t *r, char order[9])
{
    CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
    CU_ASSERT_EQUAL_FATAL(r->n_accesses, 8);
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(r->accesses[i].grant_ps, (sim_time_t)(13 + 4 * i) * 1000);
        order[i] = (char)('0' + r->accesses[i].core);
    }
    order[8] = 0;
}
