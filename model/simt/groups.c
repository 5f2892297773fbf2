/* groups.c — stack-less reconvergence (SIMT-SPEC S14, simt.reconvergence =
 * barrier): a warp holds thread groups, each with its own next slot, and
 * convergence barriers created at divergent bnz with the immediate
 * post-dominator as wait point. Each cycle the unit applies what completed
 * (bnz: splits; ld_sync answers: lanes leave their group; barriers whose
 * lanes all wait: joins), finds the warps with a group that may issue (S3/S4
 * per group), lets the scheduler order the warps (S5, S6) and issues one
 * instruction per chosen warp for the group the warp chooses, then counts
 * every resident warp's cycle with S14's stall reasons.
 * A group's own instructions are exactly those its lanes executed (a split
 * inherits its parent's, a join its groups'), so the S3/S4 times are kept
 * per lane and a group's are the latest over its lanes. ld/st in flight are
 * kept per issuing group (at most one each, S4 (b)) in a pool per warp.
 * Invariant: every barrier's mask contains or is disjoint from every group
 * (a barrier is made of a group's lanes; groups only split inside it, and
 * join at it once no later barrier holds their lanes), so the innermost
 * barrier of a group is well defined and at most 15 barriers enclose one
 * lane. The defaults' path (the stack) does not come here. */
#include "model/simt/unit.h"

#include <string.h>

#include "events/base/alloc.h"

#include "model/sm.h"

#define NO_SLOT 0xffu     /* a group whose bnz has not completed: next slot unknown */
#define BARRIERS_MAX 64   /* > the most barriers a warp can hold (see above) */

typedef struct grp {
    uint16_t mask;            /* its lanes */
    uint8_t pc;               /* next slot, NO_SLOT while its bnz is in flight */
    uint8_t bnz_p;            /* the bnz in flight: its slot */
    uint16_t bnz_taken;       /* the lanes that take it */
    uint32_t id;              /* new at every split and join (the choice rule) */
    sim_time_t bnz_at;        /* its completion (pc == NO_SLOT) */
} grp_t;

typedef struct barrier {
    uint8_t r;                /* the wait point: the bnz's immediate post-dominator */
    uint16_t mask;            /* participants still in the warp */
} barrier_t;

/* A group's ld/st in flight (S8): as lsu.c's fields of a warp. */
typedef struct mop {
    uint16_t lanes, send, wait; /* its active lanes, those that sent, those unanswered */
    bool store, merged, per_lane; /* per_lane: an ld_sync, complete lane by lane (S14) */
    uint8_t reg, slot, requests, replays, banks;
    sim_time_t issue, max;
    uint16_t fanout[ISA_LANES];
    isa_mem_lanes_t ops;
} mop_t;

/* A leaving set of lanes that waits for memory to finish (S7, S14). */
typedef struct leaving {
    uint16_t lanes;
    sim_time_t alu;           /* the latest completion of their other instructions */
} leaving_t;

typedef struct bwarp {
    uint8_t ng, nb, nleave;
    grp_t g[ISA_LANES];
    barrier_t b[BARRIERS_MAX];
    leaving_t leave[ISA_LANES];
    uint32_t next_id, last_id;/* last_id: the group that issued the warp's last instruction */
    /* per lane: S3's previous instruction, the latest non-memory completion, the
       ld/st's completion (NEVER: in flight), S4 (a)'s writers */
    sim_time_t prev[ISA_LANES], alu[ISA_LANES], mem[ISA_LANES];
    sim_time_t reg[ISA_REGS][ISA_LANES];
    uint16_t reg_ld[ISA_REGS]; /* lanes whose last writer of the register is a ld */
    uint16_t sync;            /* lanes whose last ld/st is an ld_sync (S14: nothing after it) */
    uint8_t mop_of[ISA_LANES];/* the lane's ld/st in flight */
    uint16_t mop_used;
    mop_t mop[ISA_LANES];
    uint8_t max_groups;       /* counting */
    uint32_t barriers;
} bwarp_t;

struct simt_bar {
    bwarp_t w[SIMT_WARPS_MAX];
};

static inline sim_time_t tmin(sim_time_t a, sim_time_t b) { return a < b ? a : b; }

static bwarp_t *bw_of(simt_t *u, const simt_warp_t *w) { return &u->bar->w[w - u->w]; }

bool simt_grp_create(simt_t *u)
{
    u->bar = tess_calloc(1, sizeof *u->bar);
    return u->bar != NULL;
}

void simt_grp_destroy(simt_t *u) { tess_free(u->bar); }

void simt_grp_start(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    bwarp_t *b = bw_of(u, w);
    memset(b, 0, sizeof *b);
    b->ng = 1;
    b->g[0] = (grp_t){.mask = w->mask, .pc = 0, .id = 1};
    b->next_id = 2;
    b->max_groups = 1;
    for (unsigned l = 0; l < ISA_LANES; l++)
        b->prev[l] = now;
}

void simt_grp_counts(const simt_t *u, const simt_warp_t *w, uint32_t *max_groups,
                     uint32_t *barriers)
{
    const bwarp_t *b = &u->bar->w[w - u->w];
    *max_groups = b->max_groups;
    *barriers = b->barriers;
}

unsigned simt_grp_groups(const simt_t *u, const simt_warp_t *w)
{
    return u->bar->w[w - u->w].ng;
}

/* --- groups and barriers ------------------------------------------------------ */

static void add_group(bwarp_t *b, uint16_t mask, unsigned pc)
{
    assert(b->ng < ISA_LANES && mask);
    b->g[b->ng++] = (grp_t){.mask = mask, .pc = (uint8_t)pc, .id = b->next_id++};
    if (b->ng > b->max_groups)
        b->max_groups = b->ng;
}

static void drop_group(bwarp_t *b, unsigned i) { b->g[i] = b->g[--b->ng]; }

static void drop_barrier(bwarp_t *b, unsigned i)
{
    memmove(&b->b[i], &b->b[i + 1], (b->nb - i - 1) * sizeof b->b[0]);
    b->nb--;
}

/* The barrier g waits at (S14: the innermost whose mask holds all its lanes,
 * if g's next slot is its wait point), or -1. */
static int waits_at(const bwarp_t *b, const grp_t *g)
{
    if (g->pc == NO_SLOT)
        return -1;
    for (int i = b->nb - 1; i >= 0; i--)
        if (!(g->mask & ~b->b[i].mask))
            return b->b[i].r == g->pc ? i : -1;
    return -1;
}

/* Joins the groups of every barrier all of whose lanes wait at it, the
 * innermost first, until none is complete (a joined group may wait at once
 * at the next barrier of the same slot). Barriers without lanes go. */
static void complete_barriers(bwarp_t *b)
{
    for (int i = b->nb - 1; i >= 0; i--) {
        barrier_t *x = &b->b[i];
        bool all = true;
        for (unsigned k = 0; k < b->ng && all; k++)
            if (b->g[k].mask & x->mask)
                all = waits_at(b, &b->g[k]) == i;
        if (!all)
            continue;
        uint16_t mask = x->mask;
        unsigned r = x->r;
        drop_barrier(b, (unsigned)i);
        if (mask) {
            for (unsigned k = b->ng; k-- > 0;)
                if (b->g[k].mask & mask)
                    drop_group(b, k);
            add_group(b, mask, r);
        }
        i = b->nb; /* again, from the innermost */
    }
}

static void regroup(bwarp_t *b, sim_time_t now);

/* Lanes leave the warp: out of every group and barrier (which may complete
 * a barrier). */
static void lanes_out(bwarp_t *b, uint16_t lanes, sim_time_t now)
{
    for (unsigned k = b->ng; k-- > 0;)
        if (!(b->g[k].mask &= (uint16_t)~lanes))
            drop_group(b, k);
    for (unsigned i = 0; i < b->nb; i++)
        b->b[i].mask &= (uint16_t)~lanes;
    regroup(b, now);
}

/* Lanes that leave with an instruction completing at `done` (NEVER: a ld/st
 * in flight) finish when it completes, with the scoreboard when their own
 * instructions have (S14); known at the instruction's issue. */
static void lanes_finish(simt_t *u, simt_warp_t *w, bwarp_t *b, uint16_t lanes, sim_time_t done)
{
    sim_time_t f = done, alu = 0;
    if (u->scoreboard)
        for (uint16_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            alu = simt_tmax(alu, b->alu[l]);
            f = simt_tmax(f, simt_tmax(b->alu[l], b->mem[l]));
        }
    if (f == NEVER) {
        assert(b->nleave < ISA_LANES);
        b->leave[b->nleave++] = (leaving_t){.lanes = lanes, .alu = alu};
        return;
    }
    sim_time_t at[ISA_LANES];
    for (unsigned l = 0; l < ISA_LANES; l++)
        at[l] = f;
    simt_finish_lanes(u, w, lanes, at);
}

/* Leaving lanes whose ld/st have all completed finish (at the latest). */
static void leave_check(simt_t *u, simt_warp_t *w, bwarp_t *b)
{
    for (unsigned i = b->nleave; i-- > 0;) {
        sim_time_t f = b->leave[i].alu;
        for (uint16_t m = b->leave[i].lanes; m && f != NEVER; m &= m - 1)
            f = simt_tmax(f, b->mem[__builtin_ctz(m)]);
        if (f == NEVER)
            continue;
        uint16_t lanes = b->leave[i].lanes;
        b->leave[i] = b->leave[--b->nleave];
        sim_time_t at[ISA_LANES];
        for (unsigned l = 0; l < ISA_LANES; l++)
            at[l] = f;
        simt_finish_lanes(u, w, lanes, at);
    }
}

/* --- what completed by `now` ----------------------------------------------------- */

/* A bnz completed: S14's divergence (or S7's uniform effect). */
static void bnz_completes(const simt_warp_t *w, bwarp_t *b, unsigned k, sim_time_t now)
{
    grp_t *g = &b->g[k];
    unsigned p = g->bnz_p, target = w->code[p].b, fall = p + 1; /* 16 = EXIT */
    uint16_t taken = g->bnz_taken & g->mask, not_taken = (uint16_t)(g->mask & ~taken);
    if (!taken || !not_taken || target == fall) { /* uniform: the next slot only */
        g->pc = (uint8_t)(taken ? target : fall);
        if (g->pc == SIMT_EXIT) /* (they finish as the bnz issued said) */
            lanes_out(b, g->mask, now);
        return;
    }
    unsigned r = w->ipdom[p];
    uint16_t mask = g->mask;
    drop_group(b, k);
    if (r != SIMT_EXIT) {
        assert(b->nb < BARRIERS_MAX);
        b->b[b->nb++] = (barrier_t){.r = (uint8_t)r, .mask = mask};
        b->barriers++;
    }
    add_group(b, taken, target);
    if (fall == SIMT_EXIT)
        lanes_out(b, not_taken, now);
    else
        add_group(b, not_taken, fall);
}

/* S14 atomics: the lanes of an ld_sync whose answers have arrived by `now`
 * leave their group as a new group at its next slot; the lanes still
 * waiting stay the group (when none is, nothing splits). Lanes of the group
 * that were not in that ld_sync (a join brought them) go with the arrived
 * ones: a lane never waits for another lane's lock. */
static void sync_splits(bwarp_t *b, sim_time_t now)
{
    for (unsigned k = 0; k < b->ng; k++) {
        uint16_t waiting = 0;
        for (uint16_t m = b->g[k].mask & b->sync; m; m &= m - 1)
            if (b->mem[__builtin_ctz(m)] > now)
                waiting |= (uint16_t)(1u << __builtin_ctz(m));
        if (!waiting || waiting == b->g[k].mask)
            continue;
        uint16_t out = (uint16_t)(b->g[k].mask & ~waiting);
        b->g[k].mask = waiting;
        add_group(b, out, b->g[k].pc);
    }
}

/* After a change of groups at `now`: joins, then ld_sync splits (a split
 * keeps both parts where they wait, so no join follows from it). */
static void regroup(bwarp_t *b, sim_time_t now)
{
    complete_barriers(b);
    sync_splits(b, now);
}

/* Everything that happened by `now` takes effect, in S14's order: bnz
 * completions, ld_sync answers, then barriers. */
static void catch_up(simt_t *u, simt_warp_t *w, bwarp_t *b, sim_time_t now)
{
    for (unsigned k = 0; k < b->ng;) { /* (a completion may reorder the groups) */
        if (b->g[k].pc == NO_SLOT && b->g[k].bnz_at <= now) {
            bnz_completes(w, b, k, now);
            k = 0;
        } else {
            k++;
        }
    }
    regroup(b, now);
}

/* --- S3/S4 per group ------------------------------------------------------------- */

/* The earliest time group g may issue its next instruction (NEVER: it waits
 * for an answer), or NEVER when it waits at a barrier or for its bnz. */
static sim_time_t group_ready_at(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                                 const grp_t *g)
{
    if (g->pc == NO_SLOT || waits_at(b, g) >= 0)
        return NEVER;
    sim_time_t at = 0;
    if (!u->scoreboard) {
        for (uint16_t m = g->mask; m; m &= m - 1)
            at = simt_tmax(at, b->prev[__builtin_ctz(m)]);
        return at;
    }
    isa_decoded_t d = w->code[g->pc];
    uint16_t regs = simt_regs_read(d) | simt_regs_written(d);
    bool mem = simt_is_mem(d.op) || d.op == ISA_READY;
    for (uint16_t m = g->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint16_t r = regs; r; r &= r - 1)
            at = simt_tmax(at, b->reg[__builtin_ctz(r)][l]);
        if (mem || (b->sync >> l & 1))
            at = simt_tmax(at, b->mem[l]);
        if (d.op == ISA_READY)
            at = simt_tmax(at, b->alu[l]);
    }
    return at;
}

/* Why group g, which cannot issue at t, waits (S14's stall reasons). */
static unsigned group_reason(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                             const grp_t *g, sim_time_t t)
{
    if (g->pc == NO_SLOT)
        return GPU_SIMT_STALL_EXECUTE; /* its bnz */
    if (waits_at(b, g) >= 0)
        return GPU_SIMT_STALL_BARRIER;
    isa_decoded_t d = w->code[g->pc];
    bool mem = !u->scoreboard || simt_is_mem(d.op) || d.op == ISA_READY;
    uint16_t regs = u->scoreboard ? simt_regs_read(d) | simt_regs_written(d) : 0;
    for (uint16_t m = g->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if ((mem || (b->sync >> l & 1)) && b->mem[l] > t)
            return GPU_SIMT_STALL_MEMORY;
        for (uint16_t r = regs; r; r &= r - 1) {
            unsigned reg = (unsigned)__builtin_ctz(r);
            if ((b->reg_ld[reg] >> l & 1) && b->reg[reg][l] > t)
                return GPU_SIMT_STALL_MEMORY;
        }
    }
    return GPU_SIMT_STALL_EXECUTE;
}

/* The slot a group waits to issue (the slot profile): its next slot, or
 * while its bnz is in flight (its next slot unknown) the bnz's. */
static uint8_t group_slot(const grp_t *g) { return g->pc == NO_SLOT ? g->bnz_p : g->pc; }

/* The warp's stall reason at t when it does not issue and none of its groups
 * may: memory, else barrier, else execute (S14); lanes that left and wait
 * for memory count as a group waiting for it. *slot: the slot the cycle is
 * charged to, that of the group the reason comes from (the first such), or
 * for lanes that left the one the warp issued last, as under the stack. */
static unsigned warp_reason(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                            sim_time_t t, uint8_t *slot)
{
    unsigned best = GPU_SIMT_STALL_EXECUTE;
    uint16_t grouped = 0;
    *slot = b->ng ? group_slot(&b->g[0]) : w->last_pc;
    for (unsigned k = 0; k < b->ng; k++) {
        unsigned r = group_reason(u, w, b, &b->g[k], t);
        if (r == GPU_SIMT_STALL_MEMORY) {
            *slot = group_slot(&b->g[k]);
            return r;
        }
        if (r == GPU_SIMT_STALL_BARRIER && best != r) {
            best = r;
            *slot = group_slot(&b->g[k]);
        }
        grouped |= b->g[k].mask;
    }
    for (uint16_t m = w->mask & ~grouped; m; m &= m - 1) /* lanes that left */
        if (b->mem[__builtin_ctz(m)] > t) {
            *slot = w->last_pc;
            return GPU_SIMT_STALL_MEMORY;
        }
    return best;
}

/* The group the warp chooses at `now` (S14), or -1: the one that issued its
 * last instruction if it still exists and may issue, else the most lanes,
 * the lowest next slot, the lowest lowest lane. */
static int choose(const simt_t *u, const simt_warp_t *w, const bwarp_t *b, sim_time_t now)
{
    int best = -1;
    for (unsigned k = 0; k < b->ng; k++) {
        const grp_t *g = &b->g[k];
        if (group_ready_at(u, w, b, g) > now)
            continue;
        if (g->id == b->last_id)
            return (int)k;
        if (best < 0)
            best = (int)k;
        else {
            const grp_t *x = &b->g[best];
            int n = __builtin_popcount(g->mask), nx = __builtin_popcount(x->mask);
            if (n > nx || (n == nx && (g->pc < x->pc ||
                                       (g->pc == x->pc && __builtin_ctz(g->mask) <
                                                              __builtin_ctz(x->mask)))))
                best = (int)k;
        }
    }
    return best;
}

/* --- issue ------------------------------------------------------------------------ */

/* The non-memory instruction of the active lanes completes at `done`. */
static void completes(simt_t *u, bwarp_t *b, uint16_t active, isa_decoded_t d, sim_time_t done)
{
    uint16_t wr = u->scoreboard ? simt_regs_written(d) : 0;
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        b->prev[l] = done;
        b->alu[l] = simt_tmax(b->alu[l], done);
        for (uint16_t r = wr; r; r &= r - 1)
            b->reg[__builtin_ctz(r)][l] = done;
    }
    for (uint16_t r = wr; r; r &= r - 1)
        b->reg_ld[__builtin_ctz(r)] &= (uint16_t)~active;
}

/* S8 for a group: one request per active lane (per distinct byte with
 * broadcast), each on its lane's link. */
static void issue_mem(simt_t *u, simt_warp_t *w, bwarp_t *b, uint16_t active, unsigned pc,
                      isa_decoded_t d, sim_time_t now)
{
    unsigned i = (unsigned)__builtin_ctz((uint16_t)~b->mop_used);
    mop_t *o = &b->mop[i];
    b->mop_used |= (uint16_t)(1u << i);
    bool store = d.op == ISA_ST;
    isa_mem_lanes(&u->rf, active, d, (store ? ISA_MEM_VALUE : 0) | (u->atomics ? ISA_MEM_SYNC : 0),
                  &o->ops);
    o->lanes = o->send = active;
    o->store = store;
    o->merged = u->broadcast && !store;
    if (o->merged)
        o->send = simt_merge_lanes(o->fanout, active, o->ops.sync, o->ops.addr);
    o->per_lane = !store && o->ops.sync;
    o->reg = d.c;
    o->slot = (uint8_t)pc;
    o->issue = now;
    o->max = 0;
    o->wait = o->send;
    unsigned banks;
    o->replays = (uint8_t)simt_bank_replays(u->sm, o->send, o->ops.addr, &banks);
    o->requests = (uint8_t)__builtin_popcount(o->send);
    o->banks = (uint8_t)banks;
    if (u->gpu->races) /* every active lane's access, as the stack's ld/st */
        simt_race_lanes(u, w->frame, active, pc, store, &o->ops);
    w->rec.mem_instructions++;
    w->rec.requests += o->requests;
    w->rec.replays += o->replays;
    b->sync = (uint16_t)(o->per_lane ? b->sync | active : b->sync & ~active);
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        b->mop_of[l] = (uint8_t)i;
        b->prev[l] = b->mem[l] = NEVER;
        if (!store)
            b->reg[d.c][l] = NEVER;
    }
    if (!store)
        b->reg_ld[d.c] |= active;
    uint16_t flags = store ? GPU_TXN_STORE : 0;
    for (uint16_t m = o->send; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        simt_port_t *p = &u->port[l];
        txn_t *t = p->req;
        t->addr = o->ops.addr[l];
        t->flags = (uint16_t)(flags | (o->ops.sync >> l & 1 ? GPU_TXN_SYNC : 0));
        t->data = o->ops.value[l];
        t->t_created = t->t_sent = now;
        p->arrive = now + simt_latency(u, ISA_CLASS_LD);
        link_send(&p->mem, t, p->arrive); /* to the SM, in the machine's timing mode */
    }
}

/* Issues group k's next instruction at `now`. Returns false when a lane's
 * budget (S10) stopped the run. */
static bool issue(simt_t *u, simt_warp_t *w, bwarp_t *b, unsigned k, unsigned order,
                  unsigned eligible, sim_time_t now)
{
    grp_t *g = &b->g[k];
    unsigned pc = g->pc, next = pc + 1; /* 16 = EXIT */
    uint16_t active = g->mask;
    isa_decoded_t d = w->code[pc];
    if (!simt_count_issue(u, w, active, pc, order, eligible, now))
        return false;
    b->last_id = g->id;
    if (simt_is_mem(d.op)) {
        issue_mem(u, w, b, active, pc, d, now);
        g->pc = (uint8_t)next;
        if (next == SIMT_EXIT) { /* T6: they finish with the answer */
            lanes_out(b, active, now);
            lanes_finish(u, w, b, active, NEVER);
        } else {
            regroup(b, now);
        }
        return true;
    }
    uint16_t taken = simt_exec_lanes(u, w, pc, active, d, now);
    sim_time_t done =
        now + (u->lat_fixed ? u->op_lat_ps[d.op] : simt_latency(u, isa_class((isa_op_t)d.op)));
    completes(u, b, active, d, done);
    if (d.op == ISA_BNZ) {
        g->pc = NO_SLOT; /* S14: the group splits, or moves, when the bnz completes */
        g->bnz_p = (uint8_t)pc;
        g->bnz_taken = taken;
        g->bnz_at = done;
        w->rec.divergent_branches += taken && taken != active && d.b != next;
        if (next == SIMT_EXIT && (active & ~taken)) /* S7: they leave when it completes */
            lanes_finish(u, w, b, (uint16_t)(active & ~taken), done);
    } else if (d.op == ISA_READY || next == SIMT_EXIT) {
        lanes_out(b, active, now);
        lanes_finish(u, w, b, active, done);
    } else {
        g->pc = (uint8_t)next;
        regroup(b, now);
    }
    return true;
}

/* --- one cycle ---------------------------------------------------------------------- */

/* When warp w next needs a decision after `now`: a group may issue, a bnz or
 * an instruction of its lanes completes (its stall reason may change), or it
 * closes out. Answers wake the unit themselves. */
static sim_time_t warp_next(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                            sim_time_t now)
{
    sim_time_t cycle = now + u->period, at = NEVER;
    if (!w->lanes)
        at = w->end;
    for (unsigned k = 0; k < b->ng; k++) {
        const grp_t *g = &b->g[k];
        sim_time_t r = g->pc == NO_SLOT ? g->bnz_at : group_ready_at(u, w, b, g);
        if (r != NEVER)
            at = tmin(at, simt_tmax(r, cycle));
    }
    for (uint16_t m = w->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        sim_time_t t[3] = {b->prev[l], b->alu[l], b->mem[l]};
        for (unsigned i = 0; i < 3; i++)
            if (t[i] > now && t[i] != NEVER)
                at = tmin(at, t[i]);
    }
    return at;
}

sim_time_t simt_grp_cycle(simt_t *u, sim_time_t now)
{
    uint8_t slot[SIMT_WARPS_MAX], order[SIMT_WARPS_MAX];
    int8_t pick[SIMT_WARPS_MAX];
    uint64_t age[SIMT_WARPS_MAX];
    unsigned n = 0;
    uint16_t ready = 0, issued = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        simt_warp_t *w = &u->w[i];
        bwarp_t *b = bw_of(u, w);
        catch_up(u, w, b, now);
        pick[i] = (int8_t)choose(u, w, b, now);
        if (pick[i] >= 0) {
            age[n] = w->age;
            slot[n++] = (uint8_t)i;
            ready |= (uint16_t)(1u << i);
        }
    }
    if (n <= 1)
        order[0] = 0;
    else if (u->sched_plugin)
        simt_order_by_plugin(u, now, ready, age, n, order);
    else
        simt_sched_order(u->sched, age, n, &u->last, order);
    unsigned k = n < u->width ? n : u->width, done = 0;
    for (unsigned j = 0; j < k; j++) {
        unsigned i = slot[order[j]];
        simt_warp_t *w = &u->w[i];
        if (!issue(u, w, bw_of(u, w), (unsigned)pick[i], j, n, now))
            break;
        issued |= (uint16_t)(1u << i);
        u->last.age[done++] = w->age;
    }
    if (done) {
        u->last.n = (uint8_t)done;
        u->issue_cycles++;
    }
    if (sim_stop_reason(u->sim) != SIM_END_NONE)
        return NEVER;
    sim_time_t next = NEVER;
    for (uint16_t m = u->live; m; m &= m - 1) { /* "Counting": this cycle's reason */
        unsigned i = (unsigned)__builtin_ctz(m);
        simt_warp_t *w = &u->w[i];
        bwarp_t *b = bw_of(u, w);
        simt_account(u, w, now);
        if (issued >> i & 1) {
            w->acct_ps = now + u->period;
            w->acct_reason = (uint8_t)warp_reason(u, w, b, w->acct_ps, &w->acct_slot);
        } else if (ready >> i & 1) { /* the group it would issue for */
            w->acct_reason = GPU_SIMT_STALL_ISSUE;
            w->acct_slot = group_slot(&b->g[pick[i]]);
        } else {
            w->acct_reason = (uint8_t)warp_reason(u, w, b, now, &w->acct_slot);
        }
        next = tmin(next, warp_next(u, w, b, now));
    }
    return next;
}

/* --- answers ------------------------------------------------------------------------- */

static void trace_mem(simt_t *u, const simt_warp_t *w, const mop_t *o)
{
    gpu_tr_simt_mem_t r = {
        .frame = w->frame, .slot = o->slot, .is_store = o->store, .requests = o->requests,
        .replays = o->replays, .banks = o->banks, .lanes = o->lanes, .issue_ps = o->issue,
        .done_ps = o->max,
    };
    sim_trace(u->sim, GPU_TR_SIMT_MEM, &r);
}

/* The lanes `lanes` of ld/st o completed at `done`. */
static void lanes_complete(bwarp_t *b, const mop_t *o, uint16_t lanes, sim_time_t done)
{
    for (uint16_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        b->mem[l] = done;
        if (b->prev[l] == NEVER)
            b->prev[l] = done;
        if (!o->store && b->reg[o->reg][l] == NEVER)
            b->reg[o->reg][l] = done;
    }
}

uint16_t simt_grp_answer_lanes(const simt_t *u, unsigned lane)
{
    const bwarp_t *b = &u->bar->w[u->lane_warp[lane]];
    const mop_t *o = &b->mop[b->mop_of[lane]];
    return o->merged ? o->fanout[lane] : (uint16_t)(1u << lane);
}

void simt_grp_on_answer(void *unit, txn_t *t) { simt_grp_answer(unit, t); }

void simt_grp_answer(simt_t *u, txn_t *t)
{
    unsigned l = t->core;
    assert(u->lane_warp[l] >= 0);
    simt_warp_t *w = &u->w[u->lane_warp[l]];
    bwarp_t *b = bw_of(u, w);
    unsigned i = b->mop_of[l];
    mop_t *o = &b->mop[i];
    assert(o->wait >> l & 1);
    uint16_t lanes = o->merged ? o->fanout[l] : (uint16_t)(1u << l);
    for (uint16_t m = lanes; m; m &= m - 1) {
        unsigned x = (unsigned)__builtin_ctz(m);
        if (!o->store)
            u->rf.r[o->reg][x] = (uint8_t)t->data; /* the byte read at the grant */
        core_lane_access(&u->cores[x], 0, t->t_done - t->t_created, 0);
    }
    core_lane_access(&u->cores[l], 1, 0, t->t_granted - u->port[l].arrive);
    o->max = simt_tmax(o->max, t->t_done);
    w->mem_max = simt_tmax(w->mem_max, t->t_done); /* simt_frontier */
    o->wait &= (uint16_t)~(1u << l);
    if (o->per_lane) /* S14: an ld_sync completes for each lane at its answer */
        lanes_complete(b, o, lanes, t->t_done);
    if (!o->wait) {
        if (!o->per_lane)
            lanes_complete(b, o, o->lanes, o->max);
        b->mop_used &= (uint16_t)~(1u << i);
        if (__builtin_expect(u->itrace != NULL, 0)) {
            w->mem_ops = o->ops;
            simt_trace_insn(u, w, o->slot, o->lanes, o->issue);
        }
        if (u->gpu->trace & GPU_TRACE_WARPS)
            trace_mem(u, w, o);
    }
    leave_check(u, w, b);
    if (o->per_lane || !o->wait)
        simt_wake(u, t->t_done);
}

bool simt_grp_waits_at_barrier(const simt_t *u, unsigned lane)
{
    const bwarp_t *b = &u->bar->w[u->lane_warp[lane]];
    for (unsigned k = 0; k < b->ng; k++)
        if (b->g[k].mask >> lane & 1)
            return waits_at(b, &b->g[k]) >= 0;
    return false;
}
