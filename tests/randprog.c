/* randprog.c — random program generator (see randprog.h). */
#include "tests/randprog.h"

#include <stdio.h>
#include <string.h>

#include "model/isa.h"
#include "tests/testutil.h"

typedef struct gen {
    uint64_t s;
    const rp_opts_t *o;
    uint16_t *code;  /* the task being written */
    unsigned n;      /* slots used */
} gen_t;

static unsigned pick(gen_t *g, unsigned n) { return (unsigned)(test_rand(&g->s) % n); }

/* A register an instruction may write: never r7 (the id), r8 or r9 (loop). */
static unsigned dest(gen_t *g)
{
    static const unsigned ok[] = {0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15};
    return ok[pick(g, sizeof ok / sizeof ok[0])];
}

static uint16_t mem_op(gen_t *g)
{
    unsigned b = g->o->race_free ? 7 : pick(g, 16);
    unsigned op = pick(g, 2) ? ISA_LD : ISA_ST;
    return isa_make(op, pick(g, 16), b, op == ISA_LD ? dest(g) : pick(g, 16));
}

static uint16_t alu_op(gen_t *g)
{
    static const unsigned rrr[] = {ISA_ADD, ISA_SUB, ISA_DIV, ISA_CMPGE, ISA_AND, ISA_OR, ISA_XOR};
    switch (pick(g, 6)) {
    case 0: { /* mul writes c and c+1: keep c+1 off r7..r9 */
        static const unsigned ok[] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
        return isa_make(ISA_MUL, pick(g, 16), pick(g, 16), ok[pick(g, 12)]);
    }
    case 1: return isa_make(pick(g, 2) ? ISA_RSHFT : ISA_LSHFT, pick(g, 16), pick(g, 16), dest(g));
    case 2: return isa_make_set_const(10 + pick(g, 6), pick(g, 256));
    default: return isa_make(rrr[pick(g, 7)], pick(g, 16), pick(g, 16), dest(g));
    }
}

static uint16_t random_op(gen_t *g)
{
    unsigned w = g->o->mem_weight ? g->o->mem_weight : 30;
    return pick(g, 100) < w ? mem_op(g) : alu_op(g);
}

static void emit(gen_t *g, uint16_t w)
{
    if (g->n < TM_SLOTS)
        g->code[g->n++] = w;
}

/* A counted loop: r9 = 1, r8 = N, body, r8 -= r9, bnz body, r8. */
static void emit_loop(gen_t *g)
{
    unsigned body = 1 + pick(g, 4);
    if (g->n + body + 4 > TM_SLOTS)
        return;
    emit(g, isa_make_set_const(9, 1));
    emit(g, isa_make_set_const(8, 1 + pick(g, 6)));
    unsigned top = g->n;
    for (unsigned i = 0; i < body; i++)
        emit(g, random_op(g));
    emit(g, isa_make(ISA_SUB, 8, 9, 8));
    emit(g, isa_make(ISA_BNZ, 8, top, 0));
}

/* A forward branch past 1..3 random instructions. */
static void emit_skip(gen_t *g)
{
    unsigned skip = 1 + pick(g, 3);
    if (g->n + skip + 2 > TM_SLOTS) /* the target must stay a slot (<= 15) */
        return;
    emit(g, isa_make(ISA_BNZ, pick(g, 16), g->n + 1 + skip, 0));
    for (unsigned i = 0; i < skip; i++)
        emit(g, random_op(g));
}

static void gen_task(gen_t *g, uint16_t code[TM_SLOTS])
{
    memset(code, 0, TM_SLOTS * sizeof *code);
    g->code = code;
    g->n = 0;
    emit(g, isa_make_set_const(7, 0)); /* r7 = core id */
    unsigned len = 1 + pick(g, TM_SLOTS - 1);
    while (g->n < len) {
        unsigned k = pick(g, 10);
        if (k == 0)
            emit_loop(g);
        else if (k == 1)
            emit_skip(g);
        else
            emit(g, random_op(g));
    }
    if (g->n < TM_SLOTS && pick(g, 3))
        emit(g, isa_make(ISA_READY, 0, 0, 0)); /* else: falls off slot 15 or pads */
    if (g->n < TM_SLOTS && !pick(g, 4))
        code[TM_SLOTS - 1] = random_op(g);     /* work after ready is never run */
    else if (g->n < TM_SLOTS && code[g->n - 1] >> 12 != ISA_READY)
        code[g->n] = isa_make(ISA_READY, 0, 0, 0);
}

static uint16_t random_mask(gen_t *g)
{
    uint16_t m = (uint16_t)(test_rand(&g->s) & test_rand(&g->s));
    return m ? m : (uint16_t)(1u << pick(g, 16));
}

void rp_generate(program_t *p, uint64_t seed, const rp_opts_t *opts)
{
    gen_t g = {.s = seed, .o = opts};
    tm_program_t *tm = &p->tm;
    memset(p, 0, sizeof *p);
    unsigned groups = 1 + pick(&g, opts->max_groups ? opts->max_groups : 8);
    unsigned max_tasks = opts->max_tasks ? opts->max_tasks : 4, f = 0;
    for (unsigned k = 0; k < groups && f < TM_FRAMES; k++) {
        tm_group_t *gr = &tm->groups[tm->n_groups];
        unsigned tasks = pick(&g, max_tasks + 1);
        if (f + 1 + tasks > TM_FRAMES)
            tasks = TM_FRAMES - f - 1;
        gr->cf = (uint8_t)f;
        gr->if_num = (uint8_t)tasks;
        gr->fence = (uint8_t)pick(&g, 3);
        gr->cores = random_mask(&g);
        gr->init_vect = (uint16_t)(test_rand(&g.s) & gr->cores);
        for (unsigned c = 0; c < GPU_CORES; c++)
            gr->init_r0[c] = (uint8_t)test_rand(&g.s);
        for (unsigned t = 0; t <= tasks; t++)
            tm->group_of[f + t] = (uint8_t)tm->n_groups;
        for (unsigned t = 1; t <= tasks; t++)
            gen_task(&g, tm->code[f + t]);
        f += 1 + tasks;
        tm->n_groups++;
    }
    tm->n_frames = f;
    tm->has_end_marker = f < TM_FRAMES;
    for (unsigned i = 0; i < SM_BYTES; i++)
        p->sm[i] = (uint8_t)test_rand(&g.s);
    tm_encode(tm, p->image);
    snprintf(p->path, sizeof p->path, "random-%llu", (unsigned long long)seed);
}

/* A random tail after the end marker at frame f, still the end marker (D1). */
static void random_tail(tm_program_t *p, unsigned f, uint64_t *rs)
{
    size_t room = TM_BYTES - f * TM_FRAME_BYTES;
    if (test_rand(rs) % 2) {
        for (size_t i = 0, n = test_rand(rs) % room; i < n; i++)
            p->tail[i] = (uint8_t)test_rand(rs);
    } else {
        for (size_t i = 0; test_rand(rs) % 2 && i < 8; i++)
            p->tail[test_rand(rs) % room] = (uint8_t)test_rand(rs);
    }
    p->tail[0] &= 0xc0;          /* IF_Num 0 (any fence) … */
    p->tail[2] = p->tail[3] = 0; /* … and no cores */
}

void rp_tm_random(tm_program_t *p, uint64_t *rs, void (*task)(uint16_t *code, uint64_t *rs))
{
    memset(p, 0, sizeof *p);
    unsigned f = 0;
    while (f < TM_FRAMES && (f == 0 || test_rand(rs) % 5 != 0)) {
        tm_group_t *g = &p->groups[p->n_groups];
        unsigned cap = test_rand(rs) % 5 == 0 ? 63 : 4, room = TM_FRAMES - 1 - f;
        g->cf = (uint8_t)f;
        g->if_num = (uint8_t)(test_rand(rs) % ((cap < room ? cap : room) + 1));
        g->fence = (uint8_t)(test_rand(rs) % 3);
        g->cores = (uint16_t)(test_rand(rs) | (test_rand(rs) % 2 ? 0 : 1u << (test_rand(rs) % 16)));
        g->cores = g->cores ? g->cores : 0x8000;
        g->init_vect = test_rand(rs) % 2 ? (uint16_t)test_rand(rs) & g->cores : 0;
        g->init_vect |= test_rand(rs) % 4 == 0 ? (uint16_t)test_rand(rs) : 0;
        g->hdr_reserved = test_rand(rs) % 4 == 0 ? (uint8_t)test_rand(rs) : 0;
        for (unsigned i = 0; i < GPU_CORES; i++)
            g->init_r0[i] = test_rand(rs) % 3 == 0 ? (uint8_t)test_rand(rs) : 0;
        for (unsigned i = 0; i < 10 && test_rand(rs) % 4 == 0; i++)
            g->reserved[test_rand(rs) % 10] = (uint8_t)test_rand(rs);
        for (unsigned k = f; k <= f + g->if_num; k++)
            p->group_of[k] = (uint8_t)p->n_groups;
        for (unsigned k = f + 1; k <= f + g->if_num; k++)
            task(p->code[k], rs);
        f += 1u + g->if_num;
        p->n_groups++;
    }
    p->n_frames = f;
    p->has_end_marker = f < TM_FRAMES;
    if (f < TM_FRAMES && test_rand(rs) % 2)
        random_tail(p, f, rs);
}
