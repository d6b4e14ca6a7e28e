#ifndef SEATKIT_CMICROHTTPD_SHIM_H
#define SEATKIT_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* libmicrohttpd's variadic entry points are not callable from Swift; these fixed-argument wrappers are. */

/* Starts a daemon on 127.0.0.1 (or every address when any_address), epoll with a thread pool,
   suspend/resume allowed (for Server-Sent Events), no logging to stderr (the logger is given). */
static inline struct MHD_Daemon *seatkit_mhd_start(uint16_t port, int any_address, unsigned int threads,
                                                   unsigned int connection_limit, unsigned int timeout_seconds,
                                                   size_t memory_limit,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   MHD_LogCallback logger, void *logger_cls) {
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = any_address ? htonl(INADDR_ANY) : htonl(INADDR_LOOPBACK);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_END);
}

static inline uint16_t seatkit_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The client's IPv4/IPv6 address as text into buf; returns 0 when unknown. */
static inline int seatkit_mhd_client_address(struct MHD_Connection *connection, char *buf, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return 0;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) return inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf, length) != NULL;
    if (sa->sa_family == AF_INET6) return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buf, length) != NULL;
    return 0;
}

/* A logger that drops libmicrohttpd's messages (every closed SSE client would otherwise be printed). */
static inline void seatkit_mhd_quiet_logger(void *cls, const char *format, va_list ap) {
    (void)cls; (void)format; (void)ap;
}

static inline MHD_LogCallback seatkit_mhd_quiet(void) { return seatkit_mhd_quiet_logger; }

static const uint64_t seatkit_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t seatkit_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
#endif
