/* asm.c — the assembler of spec §5: source text → tm_program_t and SM bytes.
 * One pass over the lines (asm_pp.c hands them out, macros and repetitions
 * expanded) builds the frames in order (a CF per .group, an IF per task,
 * padded by the §5 rule when it closes); bnz labels are resolved at the end
 * within their own task, then tm_validate checks the whole program.
 * Invariant: see asm_int.h; directives live in asm_dir.c. */
#include "model/asm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/base/infile.h"
#include "model/asm_int.h"
#include "model/isa.h"

/* ---- tasks ----------------------------------------------------------- */

void asm_task_close(asm_state_t *st)
{
    if (!st->task_open)
        return;
    uint16_t *w = st->p->code[st->p->n_frames - 1];
    unsigned n = st->n_instr;
    /* §5: a short task not ending in ready (any opcode 0xF) gets one; the rest stays nop. */
    if (n < TM_SLOTS && (n == 0 || isa_opc(w[n - 1]) != ISA_READY)) {
        w[n] = isa_make(ISA_READY, 0, 0, 0);
        asm_list_add(st, NULL, (int)st->p->n_frames - 1, (int)n);
    }
    st->task_open = false;
}

int asm_task_open(asm_state_t *st, size_t at)
{
    tm_program_t *p = st->p;
    tm_group_t *g = &p->groups[p->n_groups - 1];
    if (g->if_num == TM_MAX_IF_NUM)
        return asm_lex_fail(&st->lx, at, "more than %d tasks in a group (IF_Num is 6 bits; "
                            "start a new .group)", TM_MAX_IF_NUM);
    if (p->n_frames == TM_FRAMES)
        return asm_lex_fail(&st->lx, at, "more than %d frames (Task Memory holds %d)",
                            TM_FRAMES, TM_FRAMES);
    p->group_of[p->n_frames++] = (uint8_t)(p->n_groups - 1);
    g->if_num++;
    st->task_open = true;
    st->n_instr = 0;
    return TESS_OK;
}

/* Opens the group's first task when none is open yet (instructions and labels do). */
static int need_task(asm_state_t *st, size_t at, const char *what)
{
    if (st->tail_seen)
        return asm_lex_fail(&st->lx, at, "%s after .tail (.tail ends the program)", what);
    if (st->p->n_groups == 0)
        return asm_lex_fail(&st->lx, at, "%s before any .group (expected .group first)", what);
    return st->task_open ? TESS_OK : asm_task_open(st, at);
}

int asm_need_slot(asm_state_t *st, size_t at, const char *what)
{
    int rc = need_task(st, at, what);
    if (rc == TESS_OK && st->n_instr == TM_SLOTS)
        rc = asm_lex_fail(&st->lx, at, "more than %d instructions in a task (a frame holds %d; "
                          "start another with .task)", TM_SLOTS, TM_SLOTS);
    return rc;
}

/* ---- labels ---------------------------------------------------------- */

static bool is_register_name(const char *s, size_t n)
{
    if (n < 2 || n > 3 || (s[0] != 'r' && s[0] != 'R'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static uint32_t label_hash(const char *s, size_t n, unsigned frame)
{
    uint32_t h = 2166136261u ^ frame; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The index entry where label (s, n, frame) is, or the empty one where it
 * would go. */
static uint32_t *index_slot(const asm_state_t *st, const char *s, size_t n, unsigned frame)
{
    size_t mask = st->index_cap - 1, i = label_hash(s, n, frame) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t e = st->index[i];
        const asm_label_t *l = e ? &st->labels[e - 1] : NULL;
        if (!l || (l->frame == frame && l->len == n && memcmp(l->name, s, n) == 0))
            return &st->index[i];
    }
}

/* Keeps the index at most half full (lookups stay O(1): 100,000 labels
 * assemble in a fraction of a second). */
static int index_grow(asm_state_t *st)
{
    if (2 * (st->n_labels + 1) <= st->index_cap)
        return TESS_OK;
    size_t cap = st->index_cap ? 2 * st->index_cap : 64;
    uint32_t *old = st->index;
    st->index = tess_calloc(cap, sizeof *st->index);
    if (!st->index) {
        st->index = old;
        return TESS_ENOMEM;
    }
    tess_free(old);
    st->index_cap = cap;
    for (size_t i = 0; i < st->n_labels; i++) {
        const asm_label_t *l = &st->labels[i];
        *index_slot(st, l->name, l->len, l->frame) = (uint32_t)i + 1;
    }
    return TESS_OK;
}

/* Label `s` of task `frame`, or of any task when frame < 0 (a linear scan:
 * only for the message of an error). */
static const asm_label_t *label_find(const asm_state_t *st, const char *s, size_t n, int frame)
{
    if (frame >= 0) {
        uint32_t e = st->index_cap ? *index_slot(st, s, n, (unsigned)frame) : 0;
        return e ? &st->labels[e - 1] : NULL;
    }
    for (size_t i = 0; i < st->n_labels; i++) {
        const asm_label_t *l = &st->labels[i];
        if (l->len == n && memcmp(l->name, s, n) == 0 && (frame < 0 || l->frame == (unsigned)frame))
            return l;
    }
    return NULL;
}

static int label_define(asm_state_t *st, const char *s, size_t n, size_t at)
{
    int rc = need_task(st, at, "label");
    if (rc != TESS_OK)
        return rc;
    unsigned frame = st->p->n_frames - 1;
    const asm_label_t *old = label_find(st, s, n, (int)frame);
    if (is_register_name(s, n))
        return asm_lex_fail(&st->lx, at, "label '%.*s' is a register name", (int)n, s);
    if (old)
        return asm_lex_fail(&st->lx, at, "duplicate label '%.*s' (already defined at line %u)",
                            (int)n, s, old->line);
    if (st->n_instr == TM_SLOTS)
        return asm_lex_fail(&st->lx, at, "label '%.*s' would be at slot %d (a task holds slots "
                            "0..15)", (int)n, s, TM_SLOTS);
    asm_label_t *nl = tess_grow(st->labels, &st->cap_labels, st->n_labels, sizeof *nl, 32);
    if (!nl)
        return diag_fail(st->lx.diag, TESS_ENOMEM, "%s: out of memory", st->lx.file);
    st->labels = nl;
    if (index_grow(st) != TESS_OK)
        return diag_fail(st->lx.diag, TESS_ENOMEM, "%s: out of memory", st->lx.file);
    st->labels[st->n_labels] = (asm_label_t){s, n, frame, st->n_instr, st->lx.line};
    *index_slot(st, s, n, frame) = (uint32_t)++st->n_labels;
    return TESS_OK;
}

/* Patches every bnz label target; labels are local to their task. */
static int resolve_fixups(asm_state_t *st)
{
    for (size_t i = 0; i < st->n_fixups; i++) {
        const asm_fixup_t *fx = &st->fixups[i];
        const asm_label_t *l = label_find(st, fx->name, fx->len, (int)fx->frame);
        if (l) {
            st->p->code[fx->frame][fx->slot] |= (uint16_t)(l->slot << 4);
            continue;
        }
        l = label_find(st, fx->name, fx->len, -1);
        st->lx.file = fx->file;
        st->lx.ctx = fx->ctx;
        if (l)
            return asm_lex_fail_at(&st->lx, fx->line, fx->col, "label '%.*s' is in another task "
                                   "(frame %u, line %u); labels are local to their task",
                                   (int)fx->len, fx->name, l->frame, l->line);
        return asm_lex_fail_at(&st->lx, fx->line, fx->col, "undefined label '%.*s'",
                               (int)fx->len, fx->name);
    }
    return TESS_OK;
}

/* ---- instructions ---------------------------------------------------- */

static int find_mnemonic(const char *s, size_t n)
{
    for (int op = 0; op < 16; op++)
        if (asm_lex_word_is(s, n, isa_mnemonic((isa_op_t)op)))
            return op;
    return -1;
}

/* rA, rB, rC  or  rA, IMM, rC (shifts, D7: the immediate sits in field b). */
static int operands_abc(asm_state_t *st, bool imm_b, unsigned *a, unsigned *b, unsigned *c)
{
    asm_lex_t *lx = &st->lx;
    uint32_t v = 0;
    int rc = asm_lex_register(lx, a);
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the first operand");
    asm_lex_peek(lx);
    size_t at = lx->pos;
    if (rc == TESS_OK)
        rc = imm_b ? asm_lex_number(lx, &v, 15, "shift amount") : asm_lex_register(lx, b);
    if (rc == TESS_OK && imm_b && v > 7) /* encoded as written: the disassembly round-trips */
        asm_lex_warn(lx, at, "shift amount %u exceeds 7: the hardware uses b[2:0], shifting by "
                     "%u (D7)", (unsigned)v, (unsigned)(v & 7));
    if (rc == TESS_OK && imm_b)
        *b = v;
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the second operand");
    return rc == TESS_OK ? asm_lex_register(lx, c) : rc;
}

/* [rA, rB], rC */
static int operands_mem(asm_state_t *st, unsigned *a, unsigned *b, unsigned *c)
{
    asm_lex_t *lx = &st->lx;
    int rc = asm_lex_expect(lx, '[', "the mnemonic");
    if (rc == TESS_OK)
        rc = asm_lex_register(lx, a);
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the address's low register");
    if (rc == TESS_OK)
        rc = asm_lex_register(lx, b);
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ']', "the address's high register");
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the address");
    return rc == TESS_OK ? asm_lex_register(lx, c) : rc;
}

/* D9: set_const rD, id (r0..r7, loads the core id) | set_const rD, IMM (r8..r15). */
static int operands_set_const(asm_state_t *st, uint16_t *w)
{
    asm_lex_t *lx = &st->lx;
    char found[48];
    unsigned d = 0;
    uint32_t imm = 0;
    const char *s;
    asm_lex_peek(lx);
    size_t reg_at = lx->pos;
    int rc = asm_lex_register(lx, &d);
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the register");
    if (rc != TESS_OK)
        return rc;
    bool expr = asm_expr_starts(lx);
    size_t at = lx->pos, n = expr ? 0 : asm_lex_ident(lx, &s);
    if (n > 0 && !asm_lex_word_is(s, n, "id"))
        return asm_lex_fail(lx, at, "expected 'id' or a constant 0..255, found %s (not a "
                            "symbol given by .equ)", asm_lex_found(lx, at, found, sizeof found));
    if (n > 0 && d >= 8)
        return asm_lex_fail(lx, reg_at, "set_const r%u, id needs r0..r7 (r8..r15 load the "
                            "constant: set_const r%u, IMM; D9)", d, d);
    if (n == 0 && d < 8 && expr)
        return asm_lex_fail(lx, reg_at, "set_const r%u, imm needs r8..r15 (r0..r7 load the core "
                            "id: set_const r%u, id; D9)", d, d);
    if (n == 0 && d < 8)
        return asm_lex_fail(lx, at, "expected 'id' after set_const r%u, found %s", d,
                            asm_lex_found(lx, at, found, sizeof found));
    if (n == 0 && (rc = asm_lex_number(lx, &imm, 255, "set_const immediate")) != TESS_OK)
        return rc;
    *w = isa_make_set_const(d, imm);
    return TESS_OK;
}

/* bnz TARGET, rA: TARGET is a slot 0..15 or a label of the same task. */
static int operands_bnz(asm_state_t *st, uint16_t *w)
{
    asm_lex_t *lx = &st->lx;
    char found[48];
    const char *s;
    unsigned a = 0;
    uint32_t target = 0;
    bool expr = asm_expr_starts(lx);
    size_t at = lx->pos, n = expr ? 0 : asm_lex_ident(lx, &s);
    int rc = TESS_OK;
    if (n > 0 && is_register_name(s, n))
        return asm_lex_fail(lx, at, "expected a label or a slot 0..15 as the bnz target, found "
                            "register %s (bnz TARGET, rA)", asm_lex_found(lx, at, found, sizeof found));
    if (n == 0)
        rc = asm_lex_number(lx, &target, 15, "branch target slot");
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ',', "the branch target");
    if (rc == TESS_OK)
        rc = asm_lex_register(lx, &a);
    if (rc != TESS_OK || n == 0) {
        *w = isa_make(ISA_BNZ, a, target, 0);
        return rc;
    }
    st->fixups[st->n_fixups++] = (asm_fixup_t){s, n, st->p->n_frames - 1, st->n_instr,
                                               lx->line, asm_lex_col(lx, at), lx->file, lx->ctx};
    *w = isa_make(ISA_BNZ, a, 0, 0);
    return TESS_OK;
}

static int operands(asm_state_t *st, unsigned op, uint16_t *w)
{
    unsigned a = 0, b = 0, c = 0;
    int rc = TESS_OK;
    switch (isa_format((isa_op_t)op)) {
    case ISA_FMT_NONE: break;
    case ISA_FMT_RRR: rc = operands_abc(st, false, &a, &b, &c); break;
    case ISA_FMT_RIR: rc = operands_abc(st, true, &a, &b, &c); break;
    case ISA_FMT_LD:
    case ISA_FMT_ST: rc = operands_mem(st, &a, &b, &c); break;
    case ISA_FMT_SET_CONST: return operands_set_const(st, w);
    case ISA_FMT_BNZ: return operands_bnz(st, w);
    }
    *w = isa_make(op, a, b, c);
    return rc;
}

static int instruction(asm_state_t *st, const char *s, size_t n, size_t at)
{
    int op = find_mnemonic(s, n);
    if (op < 0)
        return asm_lex_fail(&st->lx, at, "unknown mnemonic '%.*s' (expected one of nop, add, sub, "
                            "mul, div, cmpge, rshft, lshft, and, or, xor, ld, set_const, st, bnz, "
                            "ready)", (int)(n > 32 ? 32 : n), s);
    int rc = asm_need_slot(st, at, "instruction");
    uint16_t w = 0;
    if (rc == TESS_OK)
        rc = operands(st, (unsigned)op, &w);
    if (rc == TESS_OK)
        rc = asm_lex_end(&st->lx, isa_mnemonic((isa_op_t)op));
    if (rc == TESS_OK) {
        asm_list_emit(st, st->p->n_frames - 1, (int)st->n_instr);
        st->p->code[st->p->n_frames - 1][st->n_instr++] = w;
    }
    return rc;
}

/* ---- lines and files ------------------------------------------------- */

/* NAME = EXPR (the cursor after '='). */
static int assignment(asm_state_t *st, const char *s, size_t n, size_t at)
{
    asm_lex_t *lx = &st->lx;
    int64_t v = 0;
    if (asm_expr_reserved(s, n))
        return asm_lex_fail(lx, at, "'%.*s' cannot be a symbol (a register name or 'id')",
                            (int)n, s);
    int rc = asm_expr_eval(lx, &v, "the value of the symbol");
    if (rc == TESS_OK)
        rc = asm_lex_end(lx, "the expression");
    if (rc == TESS_OK && asm_syms_set(&st->syms, s, n, v, lx->file, lx->line) != TESS_OK)
        rc = diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
    return rc;
}

/* A line: blank, a comment, labels, then an instruction, a macro call or a
 * directive; or NAME = EXPR. Outside the taken branch of an .if, only the
 * directives that count .if/.endif are looked at. */
static int line(asm_state_t *st)
{
    asm_lex_t *lx = &st->lx;
    char found[48];
    bool active = asm_pp_active(st->pp);
    for (;;) {
        int c = asm_lex_peek(lx);
        if (c < 0)
            return TESS_OK;
        if (c == '.')
            return asm_directive(st);
        if (!active)
            return TESS_OK;
        const char *s;
        size_t at = lx->pos, n = asm_lex_ident(lx, &s);
        if (n == 0)
            return asm_lex_fail(lx, at, "expected a mnemonic, a label or a directive, found %s",
                                asm_lex_found(lx, at, found, sizeof found));
        if (asm_lex_peek(lx) == '=' &&
            (lx->pos + 1 >= lx->line_end || lx->src[lx->pos + 1] != '=')) {
            lx->pos++;
            return assignment(st, s, n, at);
        }
        if (!asm_lex_accept(lx, ':')) {
            bool called = false;
            int rc = asm_pp_call(st->pp, lx, s, n, at, &called);
            return rc != TESS_OK || called ? rc : instruction(st, s, n, at);
        }
        int rc = label_define(st, s, n, at);
        if (rc != TESS_OK)
            return rc;
    }
}

/* Closes the program: last task, labels, end marker, the D2 checks. */
static int finish(asm_state_t *st)
{
    asm_task_close(st);
    int rc = resolve_fixups(st);
    if (rc != TESS_OK)
        return rc;
    st->p->has_end_marker = st->p->n_frames < TM_FRAMES;
    diag_t scratch = {0}; /* the assembler already warned (D3) with file:line:column */
    rc = tm_validate(st->p, st->lx.file, &scratch);
    return rc == TESS_OK ? rc : diag_fail(st->lx.diag, rc, "%s", scratch.msg);
}

/* Assembles every line the line source gives. */
static int run(asm_state_t *st, const char *name)
{
    int rc = TESS_OK;
    for (;;) {
        asm_line_t l;
        bool got = false;
        rc = asm_pp_next(st->pp, &st->lx, &l, &got);
        if (rc != TESS_OK || !got)
            break;
        asm_lex_set_line(&st->lx, l.text, l.len, l.file, l.line, l.ctx);
        asm_list_add(st, &l, -1, 0);
        if ((rc = line(st)) != TESS_OK)
            break;
    }
    if (rc != TESS_OK)
        return rc;
    st->lx.file = name; /* the end's messages name the program */
    st->lx.ctx = NULL;
    return finish(st);
}

int asm_assemble_ex(asm_output_t *out, const char *src, size_t len, const char *filename,
                    const asm_opts_t *opts, diag_t *diag)
{
    char **listing = opts ? opts->listing : NULL;
    asm_state_t *st = tess_calloc(1, sizeof *st);
    memset(out, 0, sizeof *out);
    if (listing)
        *listing = NULL;
    const char *name = filename ? filename : "<asm>";
    if (!st)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", name);
    st->out = out;
    st->p = &out->prog;
    st->listing = listing != NULL;
    asm_lex_init(&st->lx, src, len, name, diag);
    st->lx.syms = &st->syms;
    st->pp = asm_pp_open(src, len, name, opts && opts->no_include);
    int rc = st->pp ? run(st, name) : diag_fail(diag, TESS_ENOMEM, "%s: out of memory", name);
    if (rc == TESS_OK && listing && (st->lrec_failed || !(*listing = asm_list_text(st))))
        rc = diag_fail(diag, TESS_ENOMEM, "%s: out of memory (listing)", name);
    asm_pp_close(st->pp);
    asm_syms_free(&st->syms);
    tess_free(st->lrec);
    tess_free(st->labels);
    tess_free(st->index);
    tess_free(st);
    return rc;
}

int asm_assemble_listing(asm_output_t *out, const char *src, size_t len, const char *filename,
                         char **listing, diag_t *diag)
{
    asm_opts_t opts = {.listing = listing};
    return asm_assemble_ex(out, src, len, filename, &opts, diag);
}

int asm_assemble(asm_output_t *out, const char *src, size_t len, const char *filename,
                 diag_t *diag)
{
    return asm_assemble_ex(out, src, len, filename, NULL, diag);
}

int asm_assemble_file_listing(asm_output_t *out, const char *path, char **listing, diag_t *diag)
{
    char *src = NULL;
    size_t len = 0;
    memset(out, 0, sizeof *out);
    if (listing)
        *listing = NULL;
    int rc = infile_read(path, ASM_SOURCE_MAX, "the limit for an assembly source", &src, &len,
                         diag);
    if (rc != TESS_OK)
        return rc;
    rc = asm_assemble_listing(out, src, len, path, listing, diag);
    tess_free(src);
    return rc;
}

int asm_assemble_file(asm_output_t *out, const char *path, diag_t *diag)
{
    return asm_assemble_file_listing(out, path, NULL, diag);
}
