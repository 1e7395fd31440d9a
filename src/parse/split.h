/* split.h -- one big regular file scanned by several threads, read as one.
 *
 * ns_scan_input is ns_scan_path (scan.h) for the commands: a regular file
 * of NS_SPLIT_MIN bytes or more (any size when sc->split_chunk is set) is
 * cut at line starts into chunks that sc->threads threads (the calling
 * thread one of them) scan at once, each with a scanner of its own; the reports are handed to the sink in
 * order, numbered and grouped as one scan of the whole file would, with
 * the same warnings in the same order.  Whatever could make the two
 * differ -- a --label-regex (a label line before a report is state that
 * crosses lines), a hook (npu/hook.h: its facts cross lines too), a trace
 * document -- is read by ns_scan_path instead.
 */
#ifndef NPUSCOPE_SPLIT_H
#define NPUSCOPE_SPLIT_H

#include "parse/scan.h"

#define NS_SPLIT_MIN (32u << 20)  /* smaller files take one thread */
/* Bytes a thread takes at a time: small, so that the reports a worker
 * built are still in the shared cache when the calling thread hands them
 * on (8 MiB chunks cost 1.7x the CPU time of 256 KiB ones: cache misses
 * and page faults of the held reports). */
#define NS_SPLIT_CHUNK (256u << 10)
#define NS_SPLIT_THREADS_MAX 64   /* --threads above this is refused */

/* As ns_scan_path. */
int ns_scan_input(ns_scanner *sc, const char *path, ns_sink sink, void *ctx);

#endif
