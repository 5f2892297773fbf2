/* sipack.h — the layout of simt_issue_packs.data (docs/SCHEMA.md, schema
 * version 10): the one home of its rules, for the recorder that encodes the
 * SIMT unit's issue port (recorder/rec_simt.c) and the simt_issue view that
 * decodes it in SQL (views.c). A pack holds n issued warp instructions in
 * the order they issued, as a JSON array with one integer per issue,
 *
 *   q = ((…((t * frame_n + frame - frame0) * slot_n + slot - slot0) …)
 *        * lanes_n + lanes - lanes0)
 *
 * over the fields frame, slot, op, ord, depth, eligible, active, mask, lanes
 * in that order, with t = (time_ps - base_ps) / scale_ps (scale_ps the clock period,
 * or 1 when a time of the pack is not a whole cycle after base_ps), f0 the
 * smallest value of field f in the pack and f_n the radix of f - f0: the
 * largest value less f0, plus one (readers take f0 + f_n - 1 as the largest). The
 * row stores each field's place value f_unit (lanes_unit = 1, each unit the
 * next one times the next radix, t_unit the first one times frame_n), so
 * that the view decodes every field alike:
 *
 *   f = f0 + q / f_unit % f_n,   time_ps = base_ps + scale_ps * (q / t_unit),
 *
 * op is an id of the run's simt_op_names (the ISA's opcode); lanes (the
 * bits of active) is a field of its own, so that SQL need not count bits. A pack ends before its radices would need
 * more than SIPACK_BITS bits, so q < 2^62; an issue alone always fits. */
#ifndef TESSERA_SIPACK_H
#define TESSERA_SIPACK_H

#define SIPACK_MAX 4096           /* issues per pack at most */
#define SIPACK_BITS 62            /* bits of q at most */
#define SIPACK_T_BITS 24          /* t below 2^this */

#endif
