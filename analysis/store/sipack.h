/* sipack.h — the layout of simt_issue_packs.data (schema version 10) and
 * simt_mem_packs.data (version 11; docs/SCHEMA.md): the one home of its
 * rules, for the recorder that encodes the SIMT unit's issue port and warp
 * ld/st (recorder/rec_simt.c) and the simt_issue and simt_mem views that
 * decode them in SQL (views.c). A pack holds n entries in the order they
 * were recorded (issues as they issued, ld/st as they completed), as a JSON
 * array with one integer per entry,
 *
 *   q = ((…((t * frame_n + frame - frame0) * slot_n + slot - slot0) …)
 *        * last_n + last - last0)
 *
 * over the pack's fields in their order — an issue's frame, slot, op, ord,
 * depth, eligible, active, mask, lanes; a ld/st's frame, slot, op, lanes,
 * active, requests, replays, banks, latency — with t = (time_ps - base_ps) /
 * scale_ps (the time: an issue's time_ps, a ld/st's issue_ps; base_ps the
 * pack's earliest, scale_ps the clock period, or 1 when a time or latency
 * of the pack is not a whole number of cycles), f0 the smallest value of
 * field f in the pack and f_n the radix of f - f0: the largest value less
 * f0, plus one (readers take f0 + f_n - 1 as the largest). The row stores
 * each field's place value f_unit (the last field's 1, each unit the next
 * one times the next radix, t_unit the first one times frame_n), so that
 * the views decode every field alike:
 *
 *   f = f0 + q / f_unit % f_n,   time_ps = base_ps + scale_ps * (q / t_unit),
 *
 * An issue's op is an id of the run's simt_op_names (the ISA's opcode);
 * lanes (the bits of active) is a field of its own, so that SQL need not
 * count bits. A ld/st's op is 0 (ld) or 1 (st), its latency done_ps -
 * issue_ps in units of scale_ps (done_ps = time_ps + scale_ps * latency).
 * A pack ends before its radices would need more than SIPACK_BITS bits, so
 * q < 2^62; an entry alone always fits. */
#ifndef TESSERA_SIPACK_H
#define TESSERA_SIPACK_H

#define SIPACK_MAX 4096           /* entries per pack at most */
#define SIPACK_BITS 62            /* bits of q at most */
#define SIPACK_T_BITS 24          /* t (and the first entry's time's offset) below 2^this */

#endif
