/* asm_list.c — the assembler's listing (`tessera asm --listing`): every line
 * read, in order, beside the frame and slot it filled and the word there,
 * with its file:line; lines made by macros and repetitions are marked with
 * one '+' per level of expansion, readies added by the §5 padding rule get a
 * line of their own.
 * Invariant: records are only kept when a listing was asked for; the words
 * are read from the finished program, so bnz targets are resolved. */
#include <stdio.h>
#include <string.h>

#include "events/base/alloc.h"
#include "model/asm_int.h"
#include "model/text.h"

void asm_list_add(asm_state_t *st, const asm_line_t *line, int frame, int slot)
{
    if (!st->listing || st->lrec_failed)
        return;
    asm_lrec_t *v = tess_grow(st->lrec, &st->cap_lrec, st->n_lrec, sizeof *v, 256);
    if (!v) {
        st->lrec_failed = true;
        return;
    }
    st->lrec = v;
    asm_line_t none = {0};
    st->lrec[st->n_lrec++] = (asm_lrec_t){line ? *line : none, frame, slot};
}

void asm_list_emit(asm_state_t *st, unsigned frame, int slot)
{
    if (st->listing && !st->lrec_failed && st->n_lrec > 0) {
        st->lrec[st->n_lrec - 1].frame = (int)frame;
        st->lrec[st->n_lrec - 1].slot = slot;
    }
}

/* "FRAME:SLOT WORD " of a record, or blanks. */
static void put_place(text_t *t, const asm_state_t *st, const asm_lrec_t *r)
{
    if (r->frame < 0)
        text_printf(t, "%-12s", "");
    else if (r->slot < 0)
        text_printf(t, "F%02d:CF      ", r->frame);
    else
        text_printf(t, "F%02d:%02d %04x ", r->frame, r->slot,
                    (unsigned)st->p->code[r->frame][r->slot]);
}

char *asm_list_text(const asm_state_t *st)
{
    text_t t = {0};
    int width = 0;
    for (size_t i = 0; i < st->n_lrec; i++) {
        const asm_line_t *l = &st->lrec[i].line;
        int w = l->text ? snprintf(NULL, 0, "%s:%u", l->file, l->line) : 0;
        width = w > width ? w : width;
    }
    text_printf(&t, "; FRAME:SLOT WORD  FILE:LINE  SOURCE ('+': made by a macro or repetition,"
                    " one per level)\n");
    for (size_t i = 0; i < st->n_lrec; i++) {
        const asm_lrec_t *r = &st->lrec[i];
        put_place(&t, st, r);
        if (!r->line.text) {
            text_printf(&t,
                        " %-*s  (ready added: a task shorter than 16 slots ends in one, spec §5)\n",
                        width, "");
            continue;
        }
        char where[300];
        snprintf(where, sizeof where, "%s:%u", r->line.file, r->line.line);
        unsigned depth = asm_pp_depth(r->line.ctx);
        text_printf(&t, " %-*s  ", width, where);
        for (unsigned k = 0; k < depth && k < 16; k++)
            text_printf(&t, "+");
        size_t len = r->line.len;
        while (len > 0 && (r->line.text[len - 1] == '\r' || r->line.text[len - 1] == ' '))
            len--;
        text_printf(&t, "%s%.*s", depth ? " " : "", (int)len, r->line.text);
        while (!t.failed && t.n > 0 && t.s[t.n - 1] == ' ') /* no trailing blanks */
            t.s[--t.n] = 0;
        text_printf(&t, "\n");
    }
    return text_take(&t);
}
