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
 * lane. The defaults' path (the stack) does not come here.
 * With simt.collectors >= 1 or a unit narrower than 16 lanes (S12, S13 per
 * group) an instruction is held from its issue to its dispatch (gheld_t,
 * at most one per group, lanes disjoint): it reads its registers from the
 * register-file banks, takes a unit of its kind, and completes from there;
 * a ld/st sends its requests pass by pass. */
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
    sim_time_t since;         /* its next slot is pc since then (a wait's start) */
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
    uint8_t pass_j, passes;   /* S13 (pipeline): the next pass's number, how many */
    sim_time_t issue, max;
    sim_time_t pass_at;       /* S13: its next pass; NEVER: none due (or not dispatched) */
    uint64_t seq;             /* its issue order (passes start in dispatch order) */
    uint16_t fanout[ISA_LANES];
    isa_mem_lanes_t ops;
} mop_t;

/* S12/S13 under barriers: a group's instruction between its issue and its
 * dispatch (the pipeline's simt_held_t, one per group: S14). */
typedef struct gheld {
    uint16_t active;          /* its lanes */
    uint16_t reads;           /* source registers not read yet (S12) */
    uint8_t pc, mop;          /* its slot; a ld/st's entry in mop[] */
    bool mem;
    uint8_t coll;             /* its collector (S12) */
    isa_decoded_t d;
    uint32_t gid;             /* the issuing group: a bnz's completion is its (S4 (c)) */
    uint64_t seq;             /* issue order over the unit */
} gheld_t;

typedef struct bwarp {
    uint8_t ng, nb, nleave;
    grp_t g[ISA_LANES];
    barrier_t b[BARRIERS_MAX];
    uint16_t leave[ISA_LANES]; /* lanes that left, whose finish time is not known yet */
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
    /* the pipeline (S12, S13): instructions issued, not dispatched (lanes disjoint) */
    uint16_t held_used, held_lanes;
    gheld_t held[ISA_LANES];
} bwarp_t;

struct simt_bar {
    bool pipe;                /* ro: collectors or a unit narrower than 16 lanes (S12,
                                 S13): instructions go through gheld_t and passes */
    bwarp_t w[SIMT_WARPS_MAX];
};

static inline sim_time_t tmin(sim_time_t a, sim_time_t b) { return a < b ? a : b; }

static bwarp_t *bw_of(simt_t *u, const simt_warp_t *w) { return &u->bar->w[w - u->w]; }

bool simt_grp_create(simt_t *u, bool pipeline)
{
    u->bar = tess_calloc(1, sizeof *u->bar);
    if (!u->bar)
        return false;
    u->bar->pipe = pipeline || u->collectors || u->unit_width[SIMT_SP] < GPU_CORES ||
                   u->unit_width[SIMT_SFU] < GPU_CORES || u->unit_width[SIMT_LSU] < GPU_CORES;
    return true;
}

void simt_grp_destroy(simt_t *u) { tess_free(u->bar); }

void simt_grp_start(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    bwarp_t *b = bw_of(u, w);
    memset(b, 0, sizeof *b);
    b->ng = 1;
    b->g[0] = (grp_t){.mask = w->mask, .pc = 0, .id = 1, .since = now};
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

static void add_group(bwarp_t *b, uint16_t mask, unsigned pc, sim_time_t since)
{
    assert(b->ng < ISA_LANES && mask);
    b->g[b->ng++] =
        (grp_t){.mask = mask, .pc = (uint8_t)pc, .id = b->next_id++, .since = since};
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

/* The issue trace's record of group g's wait at the barrier of slot r,
 * ending at `to` (NEVER: the run ended first). */
static void trace_wait(simt_t *u, const simt_warp_t *w, const grp_t *g, unsigned r,
                       sim_time_t to)
{
    if (!(u->gpu->trace & GPU_TRACE_ISSUE))
        return;
    gpu_tr_simt_wait_t x = {.frame = w->frame, .slot = (uint8_t)r, .lanes = g->mask,
                            .from_ps = g->since, .to_ps = to};
    sim_trace(u->sim, GPU_TR_SIMT_WAIT, &x);
}

/* Joins the groups of every barrier all of whose lanes wait at it, the
 * innermost first, until none is complete (a joined group may wait at once
 * at the next barrier of the same slot). Barriers without lanes go. */
static void complete_barriers(simt_t *u, const simt_warp_t *w, bwarp_t *b, sim_time_t now)
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
                if (b->g[k].mask & mask) {
                    trace_wait(u, w, &b->g[k], r, now);
                    drop_group(b, k);
                }
            add_group(b, mask, r, now);
        }
        i = b->nb; /* again, from the innermost */
    }
}

static void regroup(simt_t *u, const simt_warp_t *w, bwarp_t *b, sim_time_t now);

/* Lanes leave the warp: out of every group and barrier (which may complete
 * a barrier). */
static void lanes_out(simt_t *u, const simt_warp_t *w, bwarp_t *b, uint16_t lanes,
                      sim_time_t now)
{
    for (unsigned k = b->ng; k-- > 0;)
        if (!(b->g[k].mask &= (uint16_t)~lanes))
            drop_group(b, k);
    for (unsigned i = 0; i < b->nb; i++)
        b->b[i].mask &= (uint16_t)~lanes;
    regroup(u, w, b, now);
}

/* When leaving lanes finish (S7, S14): when the instruction they leave with
 * completes (their last: its completion is their S3 time), with the
 * scoreboard when all their own instructions have; NEVER while that is not
 * known (a ld/st in flight, an instruction not dispatched yet). */
static sim_time_t finish_at(const simt_t *u, const bwarp_t *b, uint16_t lanes)
{
    if (lanes & b->held_lanes)
        return NEVER;
    sim_time_t f = 0;
    for (uint16_t m = lanes; m && f != NEVER; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        f = simt_tmax(f, u->scoreboard ? simt_tmax(b->alu[l], b->mem[l]) : b->prev[l]);
    }
    return f;
}

/* Leaving lane set i finishes if its time is known; true if it did. */
static bool leave_try(simt_t *u, simt_warp_t *w, bwarp_t *b, unsigned i)
{
    sim_time_t f = finish_at(u, b, b->leave[i]);
    if (f == NEVER)
        return false;
    uint16_t lanes = b->leave[i];
    b->leave[i] = b->leave[--b->nleave];
    sim_time_t at[ISA_LANES];
    for (unsigned l = 0; l < ISA_LANES; l++)
        at[l] = f;
    simt_finish_lanes(u, w, lanes, at);
    return true;
}

/* Lanes that leave the warp with the instruction just issued for them: they
 * finish at once if their time is known, else when it is (leave_check). */
static void lanes_finish(simt_t *u, simt_warp_t *w, bwarp_t *b, uint16_t lanes)
{
    assert(b->nleave < ISA_LANES);
    b->leave[b->nleave++] = lanes;
    leave_try(u, w, b, b->nleave - 1u);
}

/* Leaving lanes whose times have become known finish. */
static void leave_check(simt_t *u, simt_warp_t *w, bwarp_t *b)
{
    for (unsigned i = b->nleave; i-- > 0;)
        leave_try(u, w, b, i);
}

/* --- what completed by `now` ----------------------------------------------------- */

/* A bnz completed: S14's divergence (or S7's uniform effect). */
static void bnz_completes(simt_t *u, const simt_warp_t *w, bwarp_t *b, unsigned k,
                          sim_time_t now)
{
    grp_t *g = &b->g[k];
    unsigned p = g->bnz_p, target = w->code[p].b, fall = p + 1; /* 16 = EXIT */
    uint16_t taken = g->bnz_taken & g->mask, not_taken = (uint16_t)(g->mask & ~taken);
    if (!taken || !not_taken || target == fall) { /* uniform: the next slot only */
        g->pc = (uint8_t)(taken ? target : fall);
        g->since = now;
        if (g->pc == SIMT_EXIT) /* (they finish as the bnz issued said) */
            lanes_out(u, w, b, g->mask, now);
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
    add_group(b, taken, target, now);
    if (fall == SIMT_EXIT)
        lanes_out(u, w, b, not_taken, now);
    else
        add_group(b, not_taken, fall, now);
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
        add_group(b, out, b->g[k].pc, b->g[k].since);
    }
}

/* After a change of groups at `now`: joins, then ld_sync splits (a split
 * keeps both parts where they wait, so no join follows from it). */
static void regroup(simt_t *u, const simt_warp_t *w, bwarp_t *b, sim_time_t now)
{
    complete_barriers(u, w, b, now);
    sync_splits(b, now);
}

/* Everything that happened by `now` takes effect, in S14's order: bnz
 * completions, ld_sync answers, then barriers. */
static void catch_up(simt_t *u, simt_warp_t *w, bwarp_t *b, sim_time_t now)
{
    for (unsigned k = 0; k < b->ng;) { /* (a completion may reorder the groups) */
        if (b->g[k].pc == NO_SLOT && b->g[k].bnz_at <= now) {
            bnz_completes(u, w, b, k, now);
            k = 0;
        } else {
            k++;
        }
    }
    regroup(u, w, b, now);
}

/* --- S3/S4 per group ------------------------------------------------------------- */

/* True when an instruction of g's lanes waits in a collector (S12): with
 * the scoreboard, g issues nothing until it is dispatched (S14: per group;
 * without the scoreboard S3 waits for it anyway). */
static bool held_by(const bwarp_t *b, const grp_t *g) { return (g->mask & b->held_lanes) != 0; }

/* The earliest time S3/S4 let group g issue its next instruction (NEVER: it
 * waits for an answer or a dispatch), or NEVER when it waits at a barrier
 * or for its bnz. */
static sim_time_t s34_ready_at(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
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
    if (d.op == ISA_READY && held_by(b, g))
        return NEVER; /* S4 (d): it waits for the held one's completion too */
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

/* The earliest time group g may issue (S3, S4, S12 per group: S14). */
static sim_time_t group_ready_at(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                                 const grp_t *g)
{
    if (u->scoreboard && held_by(b, g))
        return NEVER; /* known at its dispatch */
    return s34_ready_at(u, w, b, g);
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
    if (u->scoreboard && held_by(b, g) && s34_ready_at(u, w, b, g) <= t)
        return GPU_SIMT_STALL_COLLECTOR; /* only its own instruction in a collector */
    return GPU_SIMT_STALL_EXECUTE;
}

/* The slot a group waits to issue (the slot profile): its next slot, or
 * while its bnz is in flight (its next slot unknown) the bnz's. */
static uint8_t group_slot(const grp_t *g) { return g->pc == NO_SLOT ? g->bnz_p : g->pc; }

/* The warp's stall reason at t when it does not issue and none of its groups
 * may: memory, else collector, else barrier, else execute (S14); lanes that
 * left and wait for memory count as a group waiting for it. *slot: the slot
 * the cycle is charged to, that of the group the reason comes from (the
 * first such), or for lanes that left the one the warp issued last, as
 * under the stack. */
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
        if ((r == GPU_SIMT_STALL_COLLECTOR && best != r) ||
            (r == GPU_SIMT_STALL_BARRIER && best == GPU_SIMT_STALL_EXECUTE)) {
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

/* Sends the requests of ld/st o's lanes `lanes` at `now`, each on its
 * lane's link (S8). */
static void send_mem(simt_t *u, const mop_t *o, uint16_t lanes, sim_time_t now)
{
    uint16_t flags = o->store ? GPU_TXN_STORE : 0;
    for (uint16_t m = lanes; m; m &= m - 1) {
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

/* S8 for a group: one request per active lane (per distinct byte with
 * broadcast); sent at once, or under the pipeline by its passes from its
 * dispatch (S13; its operands are read now, S12). Returns its mop[] entry. */
static unsigned issue_mem(simt_t *u, simt_warp_t *w, bwarp_t *b, uint16_t active, unsigned pc,
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
    o->pass_at = NEVER;
    o->seq = u->seq;
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
    if (!u->bar->pipe)
        send_mem(u, o, o->send, now);
    return i;
}

/* Under the pipeline: group g's instruction (slot pc, lanes active) issued
 * at `now` waits for its dispatch (S12): S3's time and the scoreboard's
 * writers of its lanes are not known until then. */
static void hold(simt_t *u, bwarp_t *b, const grp_t *g, unsigned pc, uint16_t active,
                 isa_decoded_t d, unsigned mop, sim_time_t now)
{
    (void)now;
    unsigned i = (unsigned)__builtin_ctz((uint16_t)~b->held_used);
    b->held_used |= (uint16_t)(1u << i);
    b->held_lanes |= active;
    b->held[i] = (gheld_t){.active = active, .pc = (uint8_t)pc, .mop = (uint8_t)mop,
                           .mem = simt_is_mem(d.op), .d = d, .gid = g->id, .seq = u->seq++,
                           .coll = simt_coll_take(u),
                           .reads = u->collectors ? simt_regs_read(d) : 0};
    if (simt_is_mem(d.op))
        return; /* issue_mem made its lanes wait */
    uint16_t wr = u->scoreboard ? simt_regs_written(d) : 0;
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        b->prev[l] = NEVER;
        for (uint16_t r = wr; r; r &= r - 1)
            b->reg[__builtin_ctz(r)][l] = NEVER;
    }
    for (uint16_t r = wr; r; r &= r - 1)
        b->reg_ld[__builtin_ctz(r)] &= (uint16_t)~active;
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
    bool pipe = u->bar->pipe;
    if (simt_is_mem(d.op)) {
        unsigned o = issue_mem(u, w, b, active, pc, d, now);
        if (pipe)
            hold(u, b, g, pc, active, d, o, now);
        g->pc = (uint8_t)next;
        g->since = now;
        if (next == SIMT_EXIT) { /* T6: they finish with the answer */
            lanes_out(u, w, b, active, now);
            lanes_finish(u, w, b, active);
        } else {
            regroup(u, w, b, now);
        }
        return true;
    }
    uint16_t taken = simt_exec_lanes(u, w, pc, active, d, now);
    sim_time_t done = NEVER; /* under the pipeline: known at its dispatch */
    if (pipe) {
        hold(u, b, g, pc, active, d, 0, now);
    } else {
        done = now +
               (u->lat_fixed ? u->op_lat_ps[d.op] : simt_latency(u, isa_class((isa_op_t)d.op)));
        completes(u, b, active, d, done);
    }
    if (d.op == ISA_BNZ) {
        g->pc = NO_SLOT; /* S14: the group splits, or moves, when the bnz completes */
        g->bnz_p = (uint8_t)pc;
        g->bnz_taken = taken;
        g->bnz_at = done;
        w->rec.divergent_branches += taken && taken != active && d.b != next;
        if (next == SIMT_EXIT && (active & ~taken)) /* S7: they leave when it completes */
            lanes_finish(u, w, b, (uint16_t)(active & ~taken));
    } else if (d.op == ISA_READY || next == SIMT_EXIT) {
        lanes_out(u, w, b, active, now);
        lanes_finish(u, w, b, active);
    } else {
        g->pc = (uint8_t)next;
        g->since = now;
        regroup(u, w, b, now);
    }
    return true;
}

/* --- the pipeline under barriers (S12, S13) --------------------------------------------- */

/* A held instruction of warp slot `warp`, entry `i` of its held[]. */
typedef struct held_ref {
    uint8_t warp, i;
} held_ref_t;

/* Held entry r is dispatched at `now` (S12): it takes a unit of its kind
 * (S13); a ld/st's passes start there, a non-memory instruction's
 * completion is known from there (its start of last pass plus its latency);
 * a bnz's is its group's (S4 (c), S14's split); leaving lanes may finish. */
static void dispatch(simt_t *u, held_ref_t r, sim_time_t now)
{
    simt_warp_t *w = &u->w[r.warp];
    bwarp_t *b = bw_of(u, w);
    gheld_t *h = &b->held[r.i];
    unsigned kind = simt_unit_kind(h->d.op), k = u->unit_width[kind];
    unsigned passes = ((unsigned)__builtin_popcount(h->active) + k - 1) / k;
    sim_time_t start = simt_take_unit(u, kind, passes, now);
    b->held_used &= (uint16_t)~(1u << r.i);
    b->held_lanes &= (uint16_t)~h->active;
    simt_coll_release(u, h->coll); /* free for an issue in the next cycle (S12) */
    if (h->mem) {
        mop_t *o = &b->mop[h->mop];
        o->pass_at = start;
        o->pass_j = 0;
        o->passes = (uint8_t)passes;
        return;
    }
    sim_time_t last = start + (passes - 1) * u->period;
    sim_time_t done = last + (u->lat_fixed ? u->op_lat_ps[h->d.op]
                                           : simt_latency(u, isa_class((isa_op_t)h->d.op)));
    completes(u, b, h->active, h->d, done);
    if (h->d.op == ISA_BNZ)
        for (unsigned k2 = 0; k2 < b->ng; k2++)
            if (b->g[k2].id == h->gid) /* (a group whose bnz is in flight neither splits
                                           nor joins: it is there) */
                b->g[k2].bnz_at = done;
    leave_check(u, w, b);
}

/* S12: the register-file banks serve the held instructions' reads at `now`
 * (simt_rf_serve, in issue order); those with every read served are
 * dispatched, in issue order. */
static void collect(simt_t *u, sim_time_t now)
{
    held_ref_t held[ISA_LANES * 2];
    uint64_t seq[ISA_LANES * 2];
    simt_rf_req_t req[ISA_LANES * 2];
    unsigned n = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned wi = (unsigned)__builtin_ctz(m);
        const bwarp_t *b = &u->bar->w[wi];
        for (uint16_t h = b->held_used; h; h &= h - 1) { /* insertion sort by issue */
            unsigned i = (unsigned)__builtin_ctz(h), j = n++;
            assert(n <= ISA_LANES * 2);
            for (; j > 0 && seq[j - 1] > b->held[i].seq; j--) {
                held[j] = held[j - 1];
                seq[j] = seq[j - 1];
            }
            held[j] = (held_ref_t){.warp = (uint8_t)wi, .i = (uint8_t)i};
            seq[j] = b->held[i].seq;
        }
    }
    for (unsigned j = 0; j < n; j++) {
        gheld_t *h = &u->bar->w[held[j].warp].held[held[j].i];
        req[j] = (simt_rf_req_t){h->reads, u->w[held[j].warp].rf_base, h->coll};
    }
    simt_rf_serve(u, req, n);
    for (unsigned j = 0; j < n; j++)
        if (!(u->bar->w[held[j].warp].held[held[j].i].reads = req[j].reads))
            dispatch(u, held[j], now);
}

/* S13: pass j of ld/st o (dispatched) sends the requests of its active lanes
 * number j*k ... j*k + k - 1 in lane order (a merged request with its
 * lowest lane). */
static void pass(simt_t *u, mop_t *o, sim_time_t now)
{
    unsigned k = u->unit_width[SIMT_LSU], lo = o->pass_j * k, i = 0;
    uint16_t chunk = 0;
    for (uint16_t m = o->lanes; m; m &= m - 1, i++)
        if (i >= lo && i < lo + k)
            chunk |= (uint16_t)(m & -m);
    o->pass_j++;
    o->pass_at = o->pass_j < o->passes ? now + u->period : NEVER;
    send_mem(u, o, chunk & o->send, now);
}

/* The ld/st passes that start at `now` (S13), in dispatch order. */
static void passes(simt_t *u, sim_time_t now)
{
    mop_t *due[ISA_LANES * 2];
    unsigned n = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        bwarp_t *b = &u->bar->w[__builtin_ctz(m)];
        for (uint16_t x = b->mop_used; x; x &= x - 1) {
            mop_t *o = &b->mop[__builtin_ctz(x)];
            if (o->pass_at != now)
                continue;
            unsigned j = n++;
            assert(n <= ISA_LANES * 2);
            for (; j > 0 && due[j - 1]->seq > o->seq; j--)
                due[j] = due[j - 1];
            due[j] = o;
        }
    }
    for (unsigned i = 0; i < n; i++)
        pass(u, due[i], now);
}

/* True when something of warp b moves in the pipeline in the next cycle: an
 * instruction held (its reads, its dispatch) or a pass due. */
static bool pipe_busy(const bwarp_t *b)
{
    if (b->held_used)
        return true;
    for (uint16_t x = b->mop_used; x; x &= x - 1)
        if (b->mop[__builtin_ctz(x)].pass_at != NEVER)
            return true;
    return false;
}

/* --- one cycle ---------------------------------------------------------------------- */

/* When warp w next needs a decision after `now`: a group may issue, a bnz or
 * an instruction of its lanes completes (its stall reason may change), or it
 * closes out. Answers wake the unit themselves. */
static sim_time_t warp_next(const simt_t *u, const simt_warp_t *w, const bwarp_t *b,
                            sim_time_t now)
{
    sim_time_t cycle = now + u->period, at = NEVER;
    if (pipe_busy(b))
        return cycle;
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
    /* in the scheduler's order, while fewer than issue_width have issued and
       (S12) a collector is free; those it refuses stall for collector */
    unsigned done = 0;
    uint16_t refused = 0;
    for (unsigned j = 0; j < n && done < u->width; j++) {
        unsigned i = slot[order[j]];
        simt_warp_t *w = &u->w[i];
        if (!simt_coll_free(u)) {
            refused |= (uint16_t)(1u << i);
            continue;
        }
        if (!issue(u, w, bw_of(u, w), (unsigned)pick[i], done, n, now))
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
    for (uint16_t m = u->live; m; m &= m - 1) { /* "Counting": this cycle's reason */
        unsigned i = (unsigned)__builtin_ctz(m);
        simt_warp_t *w = &u->w[i];
        bwarp_t *b = bw_of(u, w);
        simt_account(u, w, now);
        if (issued >> i & 1) { /* below */
            w->acct_ps = now + u->period;
        } else if (ready >> i & 1) { /* the group it would issue for */
            w->acct_reason =
                (uint8_t)(refused >> i & 1 ? GPU_SIMT_STALL_COLLECTOR : GPU_SIMT_STALL_ISSUE);
            w->acct_slot = group_slot(&b->g[pick[i]]);
        } else {
            w->acct_reason = (uint8_t)warp_reason(u, w, b, now, &w->acct_slot);
        }
    }
    if (u->bar->pipe) { /* then operand reads and dispatch (S12), the passes (S13) */
        collect(u, now);
        passes(u, now);
    }
    sim_time_t next = NEVER;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        simt_warp_t *w = &u->w[i];
        bwarp_t *b = bw_of(u, w);
        if (issued >> i & 1) /* the reason of the cycles after it (its instruction
                                dispatched or not), unless decided again */
            w->acct_reason = (uint8_t)warp_reason(u, w, b, w->acct_ps, &w->acct_slot);
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
        o->pass_at = NEVER; /* S13: passes still due hold only merged lanes (S8) */
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

void simt_grp_close(simt_t *u, const simt_warp_t *w)
{
    bwarp_t *b = bw_of(u, w);
    for (unsigned k = 0; k < b->ng; k++) {
        int i = waits_at(b, &b->g[k]);
        if (i >= 0)
            trace_wait(u, w, &b->g[k], b->b[i].r, NEVER);
    }
}

bool simt_grp_waits_at_barrier(const simt_t *u, unsigned lane)
{
    const bwarp_t *b = &u->bar->w[u->lane_warp[lane]];
    for (unsigned k = 0; k < b->ng; k++)
        if (b->g[k].mask >> lane & 1)
            return waits_at(b, &b->g[k]) >= 0;
    return false;
}
