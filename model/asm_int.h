/* asm_int.h — the assembler's state, shared by model/asm.c (lines, tasks,
 * instructions, labels) and model/asm_dir.c (directives). Private to model/asm*.
 * Invariant: p->n_frames counts every frame opened so far (the open task's IF
 * included) and never exceeds 64; the open group is p->groups[p->n_groups-1]
 * and the open task, when task_open, is frame p->n_frames-1. */
#ifndef TESSERA_ASM_INT_H
#define TESSERA_ASM_INT_H

#include "model/asm.h"
#include "model/asm_expr.h"
#include "model/asm_lex.h"
#include "model/asm_pp.h"

/* A label `name:` — local to the task (IF frame) it was defined in. */
typedef struct asm_label {
    const char *name; /* in the source text */
    size_t len;
    unsigned frame;   /* the task's IF */
    unsigned slot;    /* 0..15 */
    unsigned line;    /* where it was defined */
} asm_label_t;

/* A bnz whose target is a label, resolved when the source has been read. */
typedef struct asm_fixup {
    const char *name; /* the label, in the source text */
    size_t len;
    unsigned frame;   /* the bnz's IF … */
    unsigned slot;    /* … and slot */
    unsigned line;    /* where the target was written */
    unsigned col;
    const char *file;
    const asm_ctx_t *ctx;
} asm_fixup_t;

/* One line of the listing: a source line (and the slot it filled), or a
 * ready the §5 rule added. */
typedef struct asm_lrec {
    asm_line_t line;   /* text NULL: padding */
    int frame;         /* the frame it filled, or -1 */
    int slot;          /* the slot, or -1 for a .group's CF */
} asm_lrec_t;

typedef struct asm_state {
    asm_lex_t lx;
    asm_output_t *out;
    tm_program_t *p;       /* &out->prog */
    bool task_open;        /* frame p->n_frames-1 is an IF taking instructions */
    unsigned n_instr;      /* instructions in the open task */
    bool tail_seen;        /* a .tail closed the program */
    asm_label_t *labels;   /* malloc'd, every label of the source */
    size_t n_labels, cap_labels;
    uint32_t *index;       /* malloc'd hash of labels by (name, frame): label i + 1, 0 empty */
    size_t index_cap;      /* a power of two, at least twice n_labels */
    asm_fixup_t fixups[TM_FRAMES * TM_SLOTS];
    size_t n_fixups;
    asm_pp_t *pp;          /* where the lines come from */
    asm_syms_t syms;       /* .equ symbols */
    bool listing;          /* keep lrec */
    asm_lrec_t *lrec;      /* malloc'd, one per line read (and padding) */
    size_t n_lrec, cap_lrec;
    bool lrec_failed;      /* out of memory while listing */
} asm_state_t;

/* Notes that the current line filled (frame, slot) (slot -1: the CF). */
void asm_list_emit(asm_state_t *st, unsigned frame, int slot);

/* Adds a listing record for `line` (text NULL: padding at frame, slot). */
void asm_list_add(asm_state_t *st, const asm_line_t *line, int frame, int slot);

/* The listing as malloc'd text, or NULL when out of memory. */
char *asm_list_text(const asm_state_t *st);

/* Pads the open task by the §5 rule and closes it (nothing when none is open). */
void asm_task_close(asm_state_t *st);

/* Opens the next task of the open group; fails past 63 tasks or 64 frames. */
int asm_task_open(asm_state_t *st, size_t at);

/* Makes room for one more instruction word (`what` names it in messages):
 * opens the group's first task implicitly, fails before any .group, after
 * .tail or past 16 instructions. */
int asm_need_slot(asm_state_t *st, size_t at, const char *what);

/* Parses a directive; the cursor is on its '.'. */
int asm_directive(asm_state_t *st);

#endif
