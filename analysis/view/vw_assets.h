/* vw_assets.h — the web app's files (analysis/view/web), compiled into the
 * command by cmake/embed-assets.cmake: the viewer serves these bytes and
 * nothing from the file system. Private to analysis/view/. */
#ifndef TESSERA_VW_ASSETS_H
#define TESSERA_VW_ASSETS_H

#include <stddef.h>

typedef struct vw_asset {
    const char *path;         /* "/static/app.js" (NULL ends the table) */
    const char *type;         /* its Content-Type */
    const unsigned char *data;
    size_t size;
} vw_asset_t;

extern const vw_asset_t vw_assets[];

#endif
