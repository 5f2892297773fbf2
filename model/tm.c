/* tm.c — Task Memory images (spec §2, D1–D3) and raw Shared Memory images.
 * Invariant: tm_parse keeps every byte of an accepted image in the structure
 * (reserved fields, the end marker and all that follows it), so
 * tm_encode(tm_parse(x)) == x zero-padded to 2048 bytes; tm_validate applies
 * to a structure exactly the D2 rules that tm_parse applies to bytes. */
#include "model/tm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/base/infile.h"

static const char *nm(const char *name) { return name ? name : "<tm>"; }

static uint16_t get16(const uint8_t *b) { return (uint16_t)(b[0] | b[1] << 8); }

static void put16(uint8_t *b, uint16_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}

/* D1: IF_Num = 0 with an empty Core_Active_Vect ends the program. */
static bool is_end_marker(const uint8_t *frame)
{
    return (frame[0] & 0x3f) == 0 && get16(frame + 2) == 0;
}

static void cf_decode(const uint8_t *fr, unsigned f, tm_group_t *g)
{
    memset(g, 0, sizeof *g);
    g->cf = (uint8_t)f;
    g->if_num = fr[0] & 0x3f;
    g->fence = fr[0] >> 6;
    g->hdr_reserved = fr[1];
    g->cores = get16(fr + 2);
    g->init_vect = get16(fr + 4);
    memcpy(g->reserved, fr + 6, sizeof g->reserved);
    memcpy(g->init_r0, fr + 16, sizeof g->init_r0);
}

static void cf_encode(const tm_group_t *g, uint8_t *fr)
{
    fr[0] = (uint8_t)((g->if_num & 0x3f) | (g->fence & 3) << 6);
    fr[1] = g->hdr_reserved;
    put16(fr + 2, g->cores);
    put16(fr + 4, g->init_vect);
    memcpy(fr + 6, g->reserved, sizeof g->reserved);
    memcpy(fr + 16, g->init_r0, sizeof g->init_r0);
}

/* The D2 rules for one group's CF (which is not the end marker). */
static int group_check(const tm_group_t *g, const char *name, diag_t *diag)
{
    unsigned f = g->cf;
    if (g->fence > TM_FENCE_REL)
        return diag_fail(diag, TESS_EINPUT,
                         "%s: frame %u (CF): fence: reserved value %u (expected 0=no, 1=acq, 2=rel)",
                         nm(name), f, (unsigned)g->fence);
    if (g->cores == 0)
        return diag_fail(diag, TESS_EINPUT,
                         "%s: frame %u (CF): Core_Active_Vect: empty mask with IF_Num = %u "
                         "(expected at least one core)", nm(name), f, (unsigned)g->if_num);
    if (g->if_num > TM_MAX_IF_NUM)
        return diag_fail(diag, TESS_EINPUT, "%s: frame %u (CF): IF_Num: %u does not fit in 6 bits",
                         nm(name), f, (unsigned)g->if_num);
    if (f + g->if_num > TM_FRAMES - 1)
        return diag_fail(diag, TESS_EINPUT,
                         "%s: frame %u (CF): IF_Num: %u instruction frames would run past frame %d",
                         nm(name), f, (unsigned)g->if_num, TM_FRAMES - 1);
    return TESS_OK;
}

/* D3: Init_R0_Vect bits of inactive cores are ignored, with a warning each. */
static void group_warn(const tm_group_t *g, const char *name, diag_t *diag)
{
    unsigned stray = (unsigned)(g->init_vect & ~g->cores);
    for (unsigned i = 0; i < GPU_CORES; i++) {
        if (stray & (1u << i))
            diag_warn(diag,
                      "%s: frame %u (CF): Init_R0_Vect: bit %u set for core %u, which is not in "
                      "Core_Active_Vect 0x%04x; ignored", nm(name), (unsigned)g->cf, i, i,
                      (unsigned)g->cores);
    }
}

static int too_big(diag_t *diag, const char *name, size_t len, const char *what, unsigned cap)
{
    return diag_fail(diag, TESS_EINPUT, "%s: %zu bytes: larger than %s (%u bytes)", nm(name), len,
                     what, cap);
}

/* Appends group `g` (already checked) and its IFs from `img` to `prog`. */
static void add_group(tm_program_t *prog, const tm_group_t *g, const uint8_t *img)
{
    unsigned gi = prog->n_groups++;
    prog->groups[gi] = *g;
    for (unsigned f = g->cf; f <= (unsigned)g->cf + g->if_num; f++) {
        prog->group_of[f] = (uint8_t)gi;
        if (f == g->cf)
            continue;
        for (unsigned s = 0; s < TM_SLOTS; s++)
            prog->code[f][s] = get16(img + f * TM_FRAME_BYTES + 2 * s);
    }
}

int tm_parse(tm_program_t *prog, const uint8_t *bytes, size_t len, const char *name,
             diag_t *diag)
{
    uint8_t img[TM_BYTES] = {0};
    memset(prog, 0, sizeof *prog);
    if (len > TM_BYTES)
        return too_big(diag, name, len, "Task Memory", TM_BYTES);
    if (len)
        memcpy(img, bytes, len);
    unsigned f = 0;
    while (f < TM_FRAMES && !is_end_marker(img + f * TM_FRAME_BYTES)) {
        tm_group_t g;
        cf_decode(img + f * TM_FRAME_BYTES, f, &g);
        int rc = group_check(&g, name, diag);
        if (rc != TESS_OK)
            return rc;
        add_group(prog, &g, img);
        f += 1u + g.if_num;
    }
    prog->n_frames = f;
    prog->has_end_marker = f < TM_FRAMES;
    memcpy(prog->tail, img + f * TM_FRAME_BYTES, TM_BYTES - f * TM_FRAME_BYTES);
    for (unsigned i = 0; i < prog->n_groups; i++)
        group_warn(&prog->groups[i], name, diag);
    return TESS_OK;
}

void tm_encode(const tm_program_t *prog, uint8_t image[TM_BYTES])
{
    memset(image, 0, TM_BYTES);
    for (unsigned i = 0; i < prog->n_groups && i < TM_FRAMES; i++) {
        const tm_group_t *g = &prog->groups[i];
        if ((unsigned)g->cf + g->if_num >= TM_FRAMES)
            continue; /* not a valid structure; keep within the image */
        cf_encode(g, image + g->cf * TM_FRAME_BYTES);
        for (unsigned f = g->cf + 1u; f <= (unsigned)g->cf + g->if_num; f++)
            for (unsigned s = 0; s < TM_SLOTS; s++)
                put16(image + f * TM_FRAME_BYTES + 2 * s, prog->code[f][s]);
    }
    if (prog->n_frames < TM_FRAMES)
        memcpy(image + prog->n_frames * TM_FRAME_BYTES, prog->tail,
               TM_BYTES - prog->n_frames * TM_FRAME_BYTES);
}

/* The groups must tile frames 0 … n_frames-1 in order, and group_of must agree. */
static int check_layout(const tm_program_t *p, const char *name, diag_t *diag)
{
    if (p->n_frames > TM_FRAMES || p->n_groups > p->n_frames)
        return diag_fail(diag, TESS_EINPUT, "%s: %u frames in %u groups (expected at most %d frames)",
                         nm(name), p->n_frames, p->n_groups, TM_FRAMES);
    unsigned f = 0;
    for (unsigned i = 0; i < p->n_groups; i++) {
        const tm_group_t *g = &p->groups[i];
        if (g->cf != f)
            return diag_fail(diag, TESS_EINPUT, "%s: frame %u (CF): group %u starts at frame %u",
                             nm(name), f, i, (unsigned)g->cf);
        int rc = group_check(g, name, diag);
        if (rc != TESS_OK)
            return rc;
        for (unsigned k = f; k <= f + g->if_num; k++)
            if (p->group_of[k] != i)
                return diag_fail(diag, TESS_EINPUT, "%s: frame %u: group_of: %u (expected %u)",
                                 nm(name), k, (unsigned)p->group_of[k], i);
        f += 1u + g->if_num;
    }
    if (f != p->n_frames)
        return diag_fail(diag, TESS_EINPUT, "%s: frame %u: n_frames is %u but the groups end here",
                         nm(name), f, p->n_frames);
    return TESS_OK;
}

/* D1: a program shorter than TM is followed by an end marker, kept in tail. */
static int check_end(const tm_program_t *p, const char *name, diag_t *diag)
{
    if (p->n_frames == TM_FRAMES) {
        if (p->has_end_marker)
            return diag_fail(diag, TESS_EINPUT, "%s: the program fills all %d frames: no room "
                             "for an end marker", nm(name), TM_FRAMES);
        return TESS_OK;
    }
    if (!p->has_end_marker)
        return diag_fail(diag, TESS_EINPUT, "%s: frame %u: has_end_marker is false before frame %d",
                         nm(name), p->n_frames, TM_FRAMES - 1);
    if (!is_end_marker(p->tail))
        return diag_fail(diag, TESS_EINPUT,
                         "%s: frame %u (end marker): IF_Num %u, Core_Active_Vect 0x%04x "
                         "(expected 0 and 0)", nm(name), p->n_frames, p->tail[0] & 0x3fu,
                         (unsigned)get16(p->tail + 2));
    return TESS_OK;
}

int tm_validate(const tm_program_t *prog, const char *name, diag_t *diag)
{
    int rc = check_layout(prog, name, diag);
    if (rc == TESS_OK)
        rc = check_end(prog, name, diag);
    if (rc != TESS_OK)
        return rc;
    for (unsigned i = 0; i < prog->n_groups; i++)
        group_warn(&prog->groups[i], name, diag);
    return TESS_OK;
}

int tm_load_file(tm_program_t *prog, const char *path, diag_t *diag)
{
    char *buf;
    size_t size = 0;
    memset(prog, 0, sizeof *prog);
    int rc = infile_read(path, TM_BYTES, "Task Memory", &buf, &size, diag);
    if (rc != TESS_OK)
        return rc;
    rc = tm_parse(prog, (const uint8_t *)buf, size, path, diag);
    tess_free(buf);
    return rc;
}

int sm_image_parse(uint8_t sm[SM_BYTES], const uint8_t *bytes, size_t len, const char *name,
                   diag_t *diag)
{
    memset(sm, 0, SM_BYTES);
    if (len > SM_BYTES)
        return too_big(diag, name, len, "Shared Memory", SM_BYTES);
    if (len)
        memcpy(sm, bytes, len);
    return TESS_OK;
}

int sm_image_load_file(uint8_t sm[SM_BYTES], const char *path, diag_t *diag)
{
    char *buf;
    size_t size = 0;
    memset(sm, 0, SM_BYTES);
    int rc = infile_read(path, SM_BYTES, "Shared Memory", &buf, &size, diag);
    if (rc != TESS_OK)
        return rc;
    memcpy(sm, buf, size);
    tess_free(buf);
    return TESS_OK;
}

const char *tm_fence_name(unsigned fence)
{
    static const char *const names[] = {TM_FENCES(XENUM_NAME)};
    return fence < TM_FENCE_COUNT ? names[fence] : "invalid";
}
