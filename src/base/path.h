/* path.h -- file names built from parts.
 *
 * Run folders, their logs and the files a compile leaves are all found as
 * "folder/name"; every layer that opens one of them (npu/ reads the
 * compiler's files, capture/ writes runs) joins names the same way, so the
 * join lives here, at the bottom, where any of them may call it.  Nothing
 * here touches the file system: it only builds strings.
 */
#ifndef NPUSCOPE_PATH_H
#define NPUSCOPE_PATH_H

/* "a/b" as a new string (the caller frees it); a is used as given, so a
 * trailing '/' of a shows as "a//b", which every POSIX system opens. */
char *ns_path_join_new(const char *a, const char *b);

#endif
