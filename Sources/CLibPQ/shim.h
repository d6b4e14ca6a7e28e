#include <libpq-fe.h>
#include <poll.h>

/* libpq's notice processor is variadic-free but takes a C callback; a no-op keeps NOTICEs off stderr. */
static void seatkit_pq_quiet_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void seatkit_pq_silence(PGconn *conn) { PQsetNoticeProcessor(conn, seatkit_pq_quiet_notice, NULL); }

/* Waits until the connection's socket is readable or `ms` pass: 1 readable, 0 timeout, -1 error. */
static inline int seatkit_pq_wait_readable(PGconn *conn, int ms) {
    struct pollfd p = { .fd = PQsocket(conn), .events = POLLIN, .revents = 0 };
    if (p.fd < 0) return -1;
    int r = poll(&p, 1, ms);
    return r < 0 ? -1 : (r > 0 ? 1 : 0);
}
