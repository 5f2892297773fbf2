/* asm_pp_int.h — the line source's state, shared by model/asm_pp.c (readers,
 * arena, substitution, .include, .if) and model/asm_mac.c (.macro, .rept,
 * .irp, .irpc and macro calls). Private to model/asm_pp.c, model/asm_mac.c.
 * Invariant: readers[0..depth) is the stack, the top one gives the next line;
 * pp->cond[0..n_cond) are the open .if, each reader's own from its cond_base. */
#ifndef TESSERA_ASM_PP_INT_H
#define TESSERA_ASM_PP_INT_H

#include "model/asm_expr.h"
#include "model/asm_pp.h"

typedef struct asm_str {
    const char *s;
    size_t len;
} asm_str_t;

/* A body: the lines between .macro/.rept/.irp and its .endm/.endr. */
typedef struct asm_body {
    asm_line_t *v; /* malloc'd; the texts are the arena's or a file's */
    size_t n, cap;
} asm_body_t;

/* A macro parameter. */
typedef struct asm_param {
    asm_str_t name;
    asm_str_t def;    /* the default ("" when none) */
    bool req, vararg; /* :req, :vararg */
} asm_param_t;

typedef struct asm_macro {
    asm_str_t name;
    asm_str_t *names;    /* malloc'd: the parameters' names */
    asm_param_t *params; /* malloc'd */
    unsigned n_params;
    asm_body_t body;
    const char *file;    /* where it was defined */
    unsigned line;
    bool purged;         /* .purgem: its name is free again */
    unsigned calls;      /* calls so far */
} asm_macro_t;

typedef struct asm_reader {
    char kind;             /* 'f' file, 'm' macro call, 'r' .rept, 'i' .irp/.irpc */
    /* 'f' */
    const char *text;      /* the file's text */
    size_t len, off;       /* its length; where the next line starts */
    unsigned line;         /* lines read so far */
    const char *file;
    char *real;            /* malloc'd realpath (cycle guard), or NULL */
    /* bodies */
    asm_body_t body;       /* the lines of one pass */
    bool own_body;         /* body.v is the reader's (.rept/.irp), not a macro's */
    size_t next;           /* the next line of the pass */
    unsigned nest;         /* .rept/.irp open in the pass so far: \@ and \+ are
                              substituted only outside them (theirs, not ours) */
    unsigned iter, count;  /* this pass (from 1) of count */
    const asm_str_t *names; /* what \NAME may name: parameters, or the .irp symbol */
    asm_str_t *vals;       /* malloc'd: their values (.irp: one per iteration) */
    asm_str_t *items;      /* .irp: every iteration's value (within vals) */
    asm_str_t sym;         /* .irp: the symbol (names points here) */
    unsigned n_names;
    unsigned uniq;         /* \@ */
    const asm_ctx_t *ctx;  /* the expansion's context (this iteration's) */
    asm_ctx_t proto;       /* .rept/.irp: what each iteration's context starts from */
    unsigned cond_base;    /* pp->n_cond when the reader started */
} asm_reader_t;

typedef struct asm_cond {
    bool outer;            /* the lines around the .if are assembled */
    bool active;           /* the current branch is */
    bool taken;            /* a branch has been */
    bool in_else;          /* after .else */
    const char *file;      /* where the .if is */
    unsigned line;
    const asm_ctx_t *ctx;
} asm_cond_t;

struct asm_pp {
    asm_reader_t readers[ASM_PP_DEPTH_MAX + 1];
    unsigned depth;
    struct block *blocks;  /* the arena */
    size_t bytes;          /* arena and included text so far */
    unsigned long lines, expansions;
    unsigned counter;      /* expansions so far, for \@ */
    char **texts;          /* malloc'd: included files' texts and paths, freed at close */
    size_t n_texts, cap_texts;
    asm_macro_t *macros;   /* malloc'd */
    size_t n_macros, cap_macros;
    asm_syms_t macro_index; /* macro name -> index in macros */
    asm_cond_t cond[ASM_PP_COND_MAX];
    unsigned n_cond;
    bool no_include;       /* .include is refused */
};

/* n bytes of the arena, or NULL with *rc set (the limit, or out of memory). */
void *asm_pp_alloc(asm_pp_t *pp, asm_lex_t *lx, size_t n, int *rc);

/* A new reader on top (zeroed, cond_base set); fails past ASM_PP_DEPTH_MAX. */
int asm_pp_push(asm_pp_t *pp, asm_lex_t *lx, size_t at, asm_reader_t **r /* OUT */);

/* Counts one macro call or iteration (fails past ASM_PP_EXPANSIONS_MAX) and
 * moves \@ on. */
int asm_pp_count_expansion(asm_pp_t *pp, asm_lex_t *lx, size_t at);

/* The next line of the top reader's current pass only (bodies are collected
 * from it); *got false at its end. */
int asm_pp_raw(asm_pp_t *pp, asm_lex_t *lx, asm_line_t *out, bool *got);

/* The directive that starts raw line l (after any labels): its name in *s,
 * its length returned (0: none). */
size_t asm_pp_line_directive(const asm_line_t *l, const char **s /* OUT */);

/* Pops readers down to `depth` (dropping their .if) — .exitm. */
void asm_pp_unwind(asm_pp_t *pp, unsigned depth);

/* asm_mac.c: macro, endm, exitm, purgem, rept, irp, irpc, endr. */
int asm_mac_directive(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at,
                      bool *handled);
/* Starts iteration r->iter + 1 of a .rept/.irp reader (its context, \@). */
int asm_mac_iteration(asm_pp_t *pp, asm_lex_t *lx, asm_reader_t *r);
/* Pushes a reader over an included file's text (path and text kept by pp;
 * real is taken over). */
int asm_mac_push_file(asm_pp_t *pp, asm_lex_t *lx, size_t at, const char *path,
                      const char *text, size_t len, char *real);
/* Frees the macros. */
void asm_mac_free_all(asm_pp_t *pp);

#endif
