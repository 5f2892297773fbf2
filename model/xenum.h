/* xenum.h — one home for each enumeration (Lua's lopcodes, SQLite's format
 * constants). An enumeration is written once as a list macro whose entries
 * are X(PREFIX, ID, "name", extra); these helpers turn that one list into
 * the enum's values, its names indexed by value, its choices as text and a
 * per-choice documentation string, so nothing agrees by position by hand.
 * `extra` is the entry's documentation (or, for lists that say so, another
 * fact of the entry). */
#ifndef TESSERA_XENUM_H
#define TESSERA_XENUM_H

/* Enumerators: `enum e { LIST(XENUM_ID) E_COUNT };` */
#define XENUM_ID(P, id, name, extra) P##id,
/* Names by value: `const char *const n[] = {LIST(XENUM_NAME) [E_COUNT] = NULL};` */
#define XENUM_NAME(P, id, name, extra) [P##id] = name,
/* The choices as one string: `XENUM_JOIN(LIST)` is "a, b, c". */
#define XENUM_SEP_NAME(P, id, name, extra) ", " name
#define XENUM_JOIN(LIST) (&(LIST(XENUM_SEP_NAME))[2])
/* Each choice with its documentation: " a: doc of a. b: doc of b." */
#define XENUM_DOC(P, id, name, extra) " " name ": " extra "."

#endif
