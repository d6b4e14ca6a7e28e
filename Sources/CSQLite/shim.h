#ifndef SEATKIT_CSQLITE_SHIM_H
#define SEATKIT_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a macro cast Swift cannot import: bound text is copied by SQLite. */
static inline sqlite3_destructor_type seatkit_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
