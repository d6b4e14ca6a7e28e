#ifndef SEATKIT_CSQLITE_SHIM_H
#define SEATKIT_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a macro cast Swift cannot import: bound text is copied by SQLite. */
static inline sqlite3_destructor_type seatkit_sqlite_transient(void) { return SQLITE_TRANSIENT; }
/* Before the first connection: no global allocation statistics (they take a process-wide mutex on every
   allocation); the server serialises each connection itself, so no per-connection mutex either.
   Returns SQLITE_MISUSE (harmless) once the library is initialised. */
static inline int seatkit_sqlite_configure(void) {
    int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    int rc2 = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    return rc != SQLITE_OK ? rc : rc2;
}
#endif
