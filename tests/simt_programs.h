/* simt_programs.h — small SIMT programs whose timelines several tests derive
 * by hand (the reasoning is beside each test that checks them):
 * SIMT_E1, SIMT-SPEC's worked example E1 (an if/else on lane parity), and
 * SIMT_DUAL, two warps of six set_const and a ready on disjoint lanes (F1 on
 * lanes 0-1, F3 on lanes 2-3) for dual issue. */
#ifndef TESSERA_TESTS_SIMT_PROGRAMS_H
#define TESSERA_TESTS_SIMT_PROGRAMS_H

static const char SIMT_E1[] = ".group cores=0x000f fence=no\n"
                              "  set_const r1, id\n"      /* 0 */
                              "  set_const r8, 1\n"       /* 1 */
                              "  and r1, r8, r2\n"        /* 2: r2 = id & 1 */
                              "  bnz odd, r2\n"           /* 3: odd lanes jump */
                              "  add r8, r8, r9\n"        /* 4: even lanes */
                              "  bnz join, r8\n"          /* 5: always taken */
                              "odd:\n  mul r1, r1, r10\n" /* 6: odd lanes, 2 cycles */
                              "join:\n  ready\n";         /* 7 */

#define SIMT_DUAL_WARP " set_const r8, 1\n set_const r9, 2\n set_const r10, 3\n" \
                       " set_const r11, 4\n set_const r12, 5\n set_const r13, 6\n ready\n"
static const char SIMT_DUAL[] = ".group cores=0x3 fence=no\n" SIMT_DUAL_WARP
                                ".group cores=0xc fence=no\n" SIMT_DUAL_WARP;

#endif
