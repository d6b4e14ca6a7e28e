#ifndef SEATKIT_CMICROHTTPD_SHIM_H
#define SEATKIT_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

/* libmicrohttpd's variadic entry points are not callable from Swift; these fixed-argument wrappers are. */

/* Starts a daemon on 127.0.0.1 (or every address when any_address), epoll with a thread pool,
   suspend/resume allowed (for Server-Sent Events), no logging to stderr (the logger is given). */
/* A request whose query has more parameters than this, or more bytes, is refused before libmicrohttpd
   splits it: each parameter costs a record in the connection's 16 KiB memory pool, and past ~250 of
   them the pool ran out and the request was never answered (the client waited for the idle timeout). */
#define SEATKIT_MAX_QUERY_PARAMETERS 64
#define SEATKIT_MAX_QUERY_BYTES 2048

/* libmicrohttpd 0.9.75 ends a header line at CR LF or at a bare LF, and writes a NUL over each: a line
   that ended in CR LF leaves two NULs after its value (and any trailing blanks), a bare LF one, and a NUL
   inside the value ends the value early with the rest of the line after it. Both are refused (RFC 9112
   section 2.2: a server behind a proxy must not read a line differently from the proxy). */
static inline int seatkit_line_ends_cleanly(const char *value, size_t value_size) {
    const char *c = value + value_size;
    while (*c == ' ' || *c == '\t') c++;
    return c[0] == '\0' && c[1] == '\0';
}

/* What the URI callback returns (as the request's context) for a refused query: an address no object
   can have. */
static inline void *seatkit_query_refused(void) { return (void *)(uintptr_t)1; }

/* What it returns for a request line that did not end in CR LF. */
static inline void *seatkit_line_refused(void) { return (void *)(uintptr_t)2; }

/* Whether a request's context is one of these marks rather than its state. */
static inline int seatkit_is_mark(void *context) { return context == seatkit_query_refused() || context == seatkit_line_refused(); }

/* Called by libmicrohttpd with the request line's URI before it splits the query: a query over the
   limits is cut off here (the URI lives in the connection's own read buffer, writable; libmicrohttpd
   then sees an empty query) and the request is marked, so the handler answers 414 itself. */
static inline void *seatkit_uri_callback(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls; (void)connection;
    /* The request line's version follows the URI and its NUL; then the line's end, as for a header. */
    const char *version = uri + strlen(uri) + 1;
    if (!seatkit_line_ends_cleanly(version, strlen(version))) return seatkit_line_refused();
    char *query = strchr((char *)uri, '?');
    if (query == NULL) return NULL;
    size_t parameters = 1, bytes = strlen(query + 1);
    for (const char *c = query + 1; *c; c++) if (*c == '&' || *c == ';') parameters++;
    if (parameters <= SEATKIT_MAX_QUERY_PARAMETERS && bytes <= SEATKIT_MAX_QUERY_BYTES) return NULL;
    query[1] = '\0';
    return seatkit_query_refused();
}

/* How a request's header section breaks HTTP/1.1 framing (RFC 9112), or 0. */
enum seatkit_framing {
    SEATKIT_FRAMING_OK = 0,
    SEATKIT_FRAMING_DUPLICATE_CONTENT_LENGTH = 1,
    SEATKIT_FRAMING_LENGTH_AND_CHUNKED = 2,
    SEATKIT_FRAMING_FOLDED_HEADER = 3,
    SEATKIT_FRAMING_MISSING_HOST = 4,
    SEATKIT_FRAMING_DUPLICATE_HOST = 5,
    SEATKIT_FRAMING_UNKNOWN_TRANSFER_CODING = 6,
    SEATKIT_FRAMING_BAD_LINE = 7,
    SEATKIT_FRAMING_CHUNKED_BODY = 8,
};

struct seatkit_framing_scan { int content_length, transfer_encoding, host, folded, chunked_only, bad_line; };


static inline int seatkit_named(const char *key, size_t size, const char *name) {
    return size == strlen(name) && strncasecmp(key, name, size) == 0;
}

static inline enum MHD_Result seatkit_framing_visit(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                    const char *value, size_t value_size) {
    (void)kind;
    struct seatkit_framing_scan *scan = cls;
    if (seatkit_named(key, key_size, "content-length")) scan->content_length++;
    if (seatkit_named(key, key_size, "host")) scan->host++;
    if (seatkit_named(key, key_size, "transfer-encoding")) {
        scan->transfer_encoding++;
        if (value == NULL || value_size != 7 || strncasecmp(value, "chunked", 7) != 0) scan->chunked_only = 0;
    }
    /* libmicrohttpd 0.9.75 accepts obsolete line folding and glues the continuation onto the header's
       *name*, leaving the value pointer where it was. In the read buffer a header's value follows its
       name, the ':' (now a NUL) and optional spaces; a value anywhere else was folded. */
    if (value != NULL) {
        const char *end = key + key_size;
        if (value <= end || value - end > 64) { scan->folded = 1; return MHD_YES; }
        for (const char *c = end + 1; c < value; c++) if (*c != ' ' && *c != '\t') { scan->folded = 1; break; }
        if (!seatkit_line_ends_cleanly(value, value_size)) scan->bad_line = 1;
    }
    return MHD_YES;
}

static inline enum seatkit_framing seatkit_mhd_framing(struct MHD_Connection *connection, const char *version) {
    struct seatkit_framing_scan scan = {0, 0, 0, 0, 1, 0};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, seatkit_framing_visit, &scan);
    if (scan.folded) return SEATKIT_FRAMING_FOLDED_HEADER;
    if (scan.bad_line) return SEATKIT_FRAMING_BAD_LINE;
    if (scan.content_length > 1) return SEATKIT_FRAMING_DUPLICATE_CONTENT_LENGTH;
    if (scan.transfer_encoding > 0 && scan.content_length > 0) return SEATKIT_FRAMING_LENGTH_AND_CHUNKED;
    if (scan.transfer_encoding > 1 || (scan.transfer_encoding == 1 && !scan.chunked_only)) return SEATKIT_FRAMING_UNKNOWN_TRANSFER_CODING;
    /* libmicrohttpd decodes chunks itself and takes "5xyz" as a chunk of 5: a body a proxy may have read
       otherwise. Request bodies come with a Content-Length (RFC 9112 section 6.1 lets a server ask). */
    if (scan.transfer_encoding == 1) return SEATKIT_FRAMING_CHUNKED_BODY;
    if (scan.host > 1) return SEATKIT_FRAMING_DUPLICATE_HOST;
    if (scan.host == 0 && version != NULL && strcmp(version, "HTTP/1.1") == 0) return SEATKIT_FRAMING_MISSING_HOST;
    return SEATKIT_FRAMING_OK;
}

/* The connection's socket (for shutdown by the connection guard and watching for hang-ups). */
static inline int seatkit_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The pointer the connection notice stored in the connection's socket context (NULL: none). */
static inline void *seatkit_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* A socket address as text into buf; returns 0 when it is neither IPv4 nor IPv6. */
static inline int seatkit_sockaddr_text(const struct sockaddr *sa, char *buf, socklen_t length) {
    if (sa == NULL) return 0;
    if (sa->sa_family == AF_INET) return inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf, length) != NULL;
    if (sa->sa_family == AF_INET6) return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buf, length) != NULL;
    return 0;
}

static inline struct MHD_Daemon *seatkit_mhd_start(uint16_t port, int any_address, unsigned int threads,
                                                   unsigned int connection_limit, unsigned int timeout_seconds,
                                                   size_t memory_limit,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   MHD_LogCallback logger, void *logger_cls,
                                                   MHD_AcceptPolicyCallback accept_policy, void *accept_cls,
                                                   MHD_NotifyConnectionCallback notify, void *notify_cls) {
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = any_address ? htonl(INADDR_ANY) : htonl(INADDR_LOOPBACK);
    /* MHD_USE_TURBO: among its optimisations, a connection is closed without shutdown(2). An event stream's
       socket is duplicated and kept after libmicrohttpd drops the connection (HTTPServer.adopt); a
       shutdown would have ended the duplicate's socket too. */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG | MHD_USE_TURBO;
    return MHD_start_daemon(flags, port, accept_policy, accept_cls, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, seatkit_uri_callback, NULL,
                            MHD_OPTION_END);
}

static inline uint16_t seatkit_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The client's IPv4/IPv6 address as text into buf; returns 0 when unknown. */
static inline int seatkit_sockaddr_text(const struct sockaddr *sa, char *buf, socklen_t length);

static inline int seatkit_mhd_client_address(struct MHD_Connection *connection, char *buf, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return 0;
    return seatkit_sockaddr_text(info->client_addr, buf, length);
}

/* A logger that drops libmicrohttpd's messages (every closed SSE client would otherwise be printed). */
static inline void seatkit_mhd_quiet_logger(void *cls, const char *format, va_list ap) {
    (void)cls; (void)format; (void)ap;
}

static inline MHD_LogCallback seatkit_mhd_quiet(void) { return seatkit_mhd_quiet_logger; }

static const uint64_t seatkit_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t seatkit_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
#endif
