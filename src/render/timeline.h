/* timeline.h -- `timeline`'s outputs: the phases of a load (analyse/
 * timeline.h) as text, as the npuscope-timeline JSON (docs/formats.md) and
 * as a Chrome trace that Perfetto and speedscope open. */
#ifndef NPUSCOPE_RENDER_TIMELINE_H
#define NPUSCOPE_RENDER_TIMELINE_H

#include "analyse/timeline.h"

typedef enum { NS_TL_TEXT, NS_TL_JSON, NS_TL_CHROME } ns_tl_format;

/* The document of every timeline in tl[0..n). */
void ns_timeline_render(ns_buf *b, const ns_timeline *tl, int n, ns_tl_format f);
/* "HH:MM:SS.mmm" of seconds since a local midnight (days dropped). */
void ns_clock_text(char *buf, size_t len, double sec);

#endif
