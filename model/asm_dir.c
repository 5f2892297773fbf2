/* asm_dir.c — the assembler's directives (spec §5): .group (a CF and its
 * keys), .task, .data, .word, .tail and the symbols' .equ, .set and .equiv
 * (asm_pp.c has the macros, repetitions, .include and .if).
 * Invariant: a directive either completes its effect on the program or fails
 * with a file:line:column message; see asm_int.h for the state. */
#include <string.h>

#include "events/base/err.h"
#include "model/asm_int.h"

/* ---- .group ---------------------------------------------------------- */

enum { KEY_CORES = 1, KEY_FENCE = 2, KEY_INIT_R0 = 4, KEY_INIT_MASK = 8, KEY_HDR = 16,
       KEY_RESERVED = 32 };

/* What a .group line has said so far. */
typedef struct group_keys {
    unsigned seen;           /* KEY_* bits */
    tm_group_t g;            /* the CF being built */
    uint16_t listed;         /* cores given in init_r0 */
    size_t cores_at;         /* positions, for messages */
    size_t mask_at;
    size_t core_at[GPU_CORES];
} group_keys_t;

/* A 16-bit mask (what: its name in messages) into *mask; its position into
 * *at, for later messages. */
static int mask_key(asm_lex_t *lx, size_t *at, uint16_t *mask, const char *what)
{
    uint32_t v;
    asm_lex_peek(lx);
    *at = lx->pos;
    int rc = asm_lex_number(lx, &v, 0xffff, what);
    *mask = (uint16_t)v;
    return rc;
}

static int key_cores(asm_lex_t *lx, group_keys_t *k)
{
    return mask_key(lx, &k->cores_at, &k->g.cores, "core mask");
}

static int key_fence(asm_lex_t *lx, group_keys_t *k)
{
    char found[48];
    const char *s;
    asm_lex_peek(lx);
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    for (unsigned f = 0; f < TM_FENCE_RESERVED; f++) {
        if (n > 0 && asm_lex_word_is(s, n, tm_fence_name(f))) {
            k->g.fence = (uint8_t)f;
            return TESS_OK;
        }
    }
    lx->pos = at;
    return asm_lex_fail(lx, at, "bad fence %s (expected no, acq or rel)",
                        asm_lex_found(lx, at, found, sizeof found));
}

/* One CORE:VAL entry of init_r0. */
static int init_entry(asm_lex_t *lx, group_keys_t *k)
{
    uint32_t core = 0, val = 0;
    asm_lex_peek(lx);
    size_t at = lx->pos;
    int rc = asm_lex_number(lx, &core, GPU_CORES - 1, "init_r0 core");
    if (rc == TESS_OK && (k->listed & (1u << core)))
        rc = asm_lex_fail(lx, at, "duplicate core %u in init_r0", (unsigned)core);
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ':', "the init_r0 core");
    if (rc == TESS_OK)
        rc = asm_lex_number(lx, &val, 255, "init_r0 value");
    if (rc != TESS_OK)
        return rc;
    k->listed |= (uint16_t)(1u << core);
    k->core_at[core] = at;
    k->g.init_r0[core] = (uint8_t)val;
    return TESS_OK;
}

/* init_r0={CORE:VAL, ...} (possibly empty). */
static int key_init_r0(asm_lex_t *lx, group_keys_t *k)
{
    char found[48];
    int rc = asm_lex_expect(lx, '{', "init_r0=");
    if (rc != TESS_OK || asm_lex_accept(lx, '}'))
        return rc;
    for (;;) {
        if ((rc = init_entry(lx, k)) != TESS_OK)
            return rc;
        if (asm_lex_accept(lx, '}'))
            return TESS_OK;
        if (!asm_lex_accept(lx, ','))
            return asm_lex_fail(lx, lx->pos, "expected ',' or '}' in init_r0, found %s",
                                asm_lex_found(lx, lx->pos, found, sizeof found));
    }
}

static int key_init_mask(asm_lex_t *lx, group_keys_t *k)
{
    return mask_key(lx, &k->mask_at, &k->g.init_vect, "init_mask");
}

static int key_hdr(asm_lex_t *lx, group_keys_t *k)
{
    uint32_t v;
    int rc = asm_lex_number(lx, &v, 255, "hdr (Header[15:8])");
    k->g.hdr_reserved = (uint8_t)v;
    return rc;
}

static int key_reserved(asm_lex_t *lx, group_keys_t *k)
{
    size_t n;
    return asm_lex_hex_bytes(lx, k->g.reserved, sizeof k->g.reserved, &n,
                             "reserved (CF bytes 6..15)");
}

static const struct {
    const char *name;
    unsigned bit;
    int (*parse)(asm_lex_t *, group_keys_t *);
} group_key_table[] = {
    {"cores", KEY_CORES, key_cores},       {"fence", KEY_FENCE, key_fence},
    {"init_r0", KEY_INIT_R0, key_init_r0}, {"init_mask", KEY_INIT_MASK, key_init_mask},
    {"hdr", KEY_HDR, key_hdr},             {"reserved", KEY_RESERVED, key_reserved},
};

/* One KEY=VALUE of a .group line. */
static int group_key(asm_lex_t *lx, group_keys_t *k)
{
    char found[48];
    const char *s;
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    for (size_t i = 0; n > 0 && i < sizeof group_key_table / sizeof group_key_table[0]; i++) {
        if (!asm_lex_word_is(s, n, group_key_table[i].name))
            continue;
        if (k->seen & group_key_table[i].bit)
            return asm_lex_fail(lx, at, "duplicate key '%s' in .group", group_key_table[i].name);
        k->seen |= group_key_table[i].bit;
        int rc = asm_lex_expect(lx, '=', group_key_table[i].name);
        return rc == TESS_OK ? group_key_table[i].parse(lx, k) : rc;
    }
    return asm_lex_fail(lx, at, "unknown .group key %s (expected cores, fence, init_r0, "
                        "init_mask, hdr or reserved)", asm_lex_found(lx, at, found, sizeof found));
}

/* D3: R0 initialisation of a core outside the group is ignored by the model. */
static void group_warn(asm_lex_t *lx, const group_keys_t *k)
{
    unsigned stray = (unsigned)(k->g.init_vect & ~k->g.cores);
    if (stray && (k->seen & KEY_INIT_MASK)) {
        asm_lex_warn(lx, k->mask_at, "init_mask: 0x%04x includes cores 0x%04x that are not in "
                     "cores 0x%04x; their R0 is not initialised (D3)", (unsigned)k->g.init_vect,
                     stray, (unsigned)k->g.cores);
        return;
    }
    for (unsigned i = 0; i < GPU_CORES; i++)
        if (stray & (1u << i))
            asm_lex_warn(lx, k->core_at[i], "init_r0: core %u is not in cores 0x%04x; its R0 is "
                         "not initialised (D3)", i, (unsigned)k->g.cores);
}

static int dir_group(asm_state_t *st, size_t at)
{
    asm_lex_t *lx = &st->lx;
    tm_program_t *p = st->p;
    group_keys_t k;
    memset(&k, 0, sizeof k);
    asm_task_close(st);
    if (p->n_frames == TM_FRAMES)
        return asm_lex_fail(lx, at, "more than %d frames (Task Memory holds %d)", TM_FRAMES,
                            TM_FRAMES);
    while (asm_lex_peek(lx) >= 0) {
        int rc = group_key(lx, &k);
        if (rc != TESS_OK)
            return rc;
    }
    if (!(k.seen & KEY_CORES))
        return asm_lex_fail(lx, at, "missing cores=MASK in .group");
    if (k.g.cores == 0)
        return asm_lex_fail(lx, k.cores_at, "cores=0: empty core mask (expected at least one "
                            "core; IF_Num = 0 with no cores is the end marker)");
    if (!(k.seen & KEY_INIT_MASK))
        k.g.init_vect = k.listed;
    group_warn(lx, &k);
    k.g.cf = (uint8_t)p->n_frames;
    asm_list_emit(st, p->n_frames, -1);
    p->group_of[p->n_frames++] = (uint8_t)p->n_groups;
    p->groups[p->n_groups++] = k.g;
    return TESS_OK;
}

/* ---- .task, .word, .data, .tail -------------------------------------- */

static int dir_task(asm_state_t *st, size_t at)
{
    int rc = asm_lex_end(&st->lx, ".task");
    if (rc != TESS_OK)
        return rc;
    if (st->p->n_groups == 0)
        return asm_lex_fail(&st->lx, at, ".task before any .group (expected .group first)");
    /* Right after .group, .task opens the first task; otherwise it starts the next one. */
    asm_task_close(st);
    return asm_task_open(st, at);
}

static int dir_word(asm_state_t *st, size_t at)
{
    uint32_t v = 0;
    int rc = asm_need_slot(st, at, ".word");
    if (rc == TESS_OK)
        rc = asm_lex_number(&st->lx, &v, 0xffff, "instruction word");
    if (rc == TESS_OK)
        rc = asm_lex_end(&st->lx, ".word");
    if (rc == TESS_OK) {
        asm_list_emit(st, st->p->n_frames - 1, (int)st->n_instr);
        st->p->code[st->p->n_frames - 1][st->n_instr++] = (uint16_t)v;
    }
    return rc;
}

/* .data ADDR: b, b, ... — SM bytes from ADDR. */
static int dir_data(asm_state_t *st)
{
    asm_lex_t *lx = &st->lx;
    uint32_t addr = 0, b = 0;
    int rc = asm_lex_number(lx, &addr, SM_BYTES - 1, ".data address");
    if (rc == TESS_OK)
        rc = asm_lex_expect(lx, ':', "the .data address");
    for (unsigned i = addr; rc == TESS_OK; i++) {
        asm_lex_peek(lx);
        size_t at = lx->pos;
        if (i >= SM_BYTES)
            return asm_lex_fail(lx, at, ".data runs past address %d (byte %u from 0x%03x)",
                                SM_BYTES - 1, i - addr, (unsigned)addr);
        if ((rc = asm_lex_number(lx, &b, 255, ".data byte")) != TESS_OK)
            return rc;
        if (st->out->sm_set[i])
            asm_lex_warn(lx, at, ".data: address 0x%03x was already given; overridden", i);
        else
            st->out->data_bytes++;
        st->out->sm[i] = (uint8_t)b;
        st->out->sm_set[i] = 1;
        if (!asm_lex_accept(lx, ','))
            break;
    }
    return rc == TESS_OK ? asm_lex_end(lx, "the .data bytes") : rc;
}

/* .tail 0x<hex>: the bytes from the end marker on (trailing zeros omitted). */
static int dir_tail(asm_state_t *st, size_t at)
{
    asm_lex_t *lx = &st->lx;
    tm_program_t *p = st->p;
    uint8_t bytes[TM_BYTES] = {0};
    size_t n = 0;
    if (st->tail_seen)
        return asm_lex_fail(lx, at, "second .tail (.tail ends the program)");
    asm_task_close(st);
    st->tail_seen = true;
    int rc = asm_lex_hex_bytes(lx, bytes, sizeof bytes, &n, ".tail bytes");
    if (rc == TESS_OK)
        rc = asm_lex_end(lx, ".tail");
    if (rc != TESS_OK)
        return rc;
    size_t room = TM_BYTES - (size_t)p->n_frames * TM_FRAME_BYTES;
    if (n > room)
        return asm_lex_fail(lx, at, ".tail: %zu bytes do not fit after frame %u (at most %zu)",
                            n, p->n_frames ? p->n_frames - 1 : 0, room);
    if ((bytes[0] & 0x3f) != 0 || bytes[2] != 0 || bytes[3] != 0)
        return asm_lex_fail(lx, at, ".tail: its first frame must be an end marker (IF_Num = 0, "
                            "Core_Active_Vect = 0)");
    memcpy(p->tail, bytes, n);
    return TESS_OK;
}

/* .equ NAME, EXPR / .set NAME, EXPR (redefinable) / .equiv NAME, EXPR (not). */
static int dir_equ(asm_state_t *st, bool once, const char *dir)
{
    asm_lex_t *lx = &st->lx;
    char found[48];
    const char *s;
    int64_t v = 0;
    asm_lex_peek(lx);
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    if (n == 0)
        return asm_lex_fail(lx, at, "expected a symbol name after %s, found %s", dir,
                            asm_lex_found(lx, at, found, sizeof found));
    if (asm_expr_reserved(s, n))
        return asm_lex_fail(lx, at, "'%.*s' cannot be a symbol (a register name or 'id')",
                            (int)n, s);
    const asm_sym_t *old = asm_syms_get(&st->syms, s, n);
    if (once && old)
        return asm_lex_fail(lx, at, ".equiv: symbol '%.*s' is already defined (at %s:%u)",
                            (int)n, s, old->file, old->line);
    int rc = asm_lex_expect(lx, ',', "the symbol name");
    if (rc == TESS_OK)
        rc = asm_expr_eval(lx, &v, "the value of the symbol");
    if (rc == TESS_OK)
        rc = asm_lex_end(lx, "the expression");
    if (rc == TESS_OK && asm_syms_set(&st->syms, s, n, v, lx->file, lx->line) != TESS_OK)
        rc = diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
    return rc;
}

int asm_directive(asm_state_t *st)
{
    asm_lex_t *lx = &st->lx;
    const char *s = NULL;
    size_t at = lx->pos++, n = 0;
    int c = asm_lex_peek(lx);
    if (c >= 0 && lx->pos == at + 1) /* the name follows the '.' directly */
        n = asm_lex_ident(lx, &s);
    if (n == 0 && !asm_pp_active(st->pp))
        return TESS_OK;
    if (n == 0)
        return asm_lex_fail(lx, at, "expected a directive name after '.' (.group, .task, .data, "
                            ".word, .tail, .equ, .macro, .rept, .irp, .include, .if ...)");
    bool handled = false;
    int rc = asm_pp_directive(st->pp, lx, s, n, at, &handled);
    if (handled)
        return rc;
    if (asm_lex_word_is(s, n, "equ") || asm_lex_word_is(s, n, "set"))
        return dir_equ(st, false, asm_lex_word_is(s, n, "equ") ? ".equ" : ".set");
    if (asm_lex_word_is(s, n, "equiv"))
        return dir_equ(st, true, ".equiv");
    if (asm_lex_word_is(s, n, "data"))
        return dir_data(st);
    if (st->tail_seen && !asm_lex_word_is(s, n, "tail"))
        return asm_lex_fail(lx, at, "'.%.*s' after .tail (.tail ends the program)",
                            (int)(n > 32 ? 32 : n), s);
    if (asm_lex_word_is(s, n, "group"))
        return dir_group(st, at);
    if (asm_lex_word_is(s, n, "task"))
        return dir_task(st, at);
    if (asm_lex_word_is(s, n, "word"))
        return dir_word(st, at);
    if (asm_lex_word_is(s, n, "tail"))
        return dir_tail(st, at);
    return asm_lex_fail(lx, at, "unknown directive '.%.*s' (expected .group, .task, .data, .word, "
                        ".tail, .equ, .set, .equiv, .macro, .rept, .irp, .irpc, .include or "
                        ".if)", (int)(n > 32 ? 32 : n), s);
}
