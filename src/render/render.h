/* render.h -- the render layer's tree writers at once, for a caller that
 * uses several of them.
 *
 * Each writer has its own header, and new code includes the one it uses:
 *   model/view.h         which rows, which time column (below every writer)
 *   render/text.h        the terminal tree
 *   render/tree_json.h   the npuscope-tree JSON, and one report of it
 *   render/export.h      `tree --format ...`: the exporter on top of both
 *   render/merged.h      the merged tree of `tree --merge`
 * This header only includes them; it declares nothing of its own.
 */
#ifndef NPUSCOPE_RENDER_H
#define NPUSCOPE_RENDER_H

#include "model/view.h"
#include "render/export.h"
#include "render/merged.h"
#include "render/text.h"
#include "render/tree_json.h"

#endif
