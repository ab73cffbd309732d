#ifndef PASSKEYD_CMICROHTTPD_SHIM_H
#define PASSKEYD_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <microhttpd.h>
// Wrappers for what Swift cannot import from libmicrohttpd: the variadic MHD_start_daemon,
// MHD_get_daemon_info and MHD_get_connection_info, and MHD_create_response_from_buffer whose
// MHD_ResponseMemoryMode enum is declared through the _MHD_FIXED_ENUM macro.

/// Why: MHD decodes "%00" to a NUL byte and then hands the path (and each query key and value) on as a C string,
/// so "/.well-known/jwks.json%00.txt" reached the router as "/.well-known/jwks.json": one resource under many
/// names, which a proxy's path rules in front of passkeyd would not expect. A string holding "%00" is left
/// undecoded instead (such a path matches no route: 404; a query value keeps the literal escape); every other
/// string is decoded by MHD's own MHD_http_unescape, as before.
static size_t CMicroHTTPD_unescape(void *cls, struct MHD_Connection *connection, char *text)
{
    (void)cls;
    (void)connection;
    if (strstr(text, "%00") != NULL) {
        return strlen(text);
    }
    return MHD_http_unescape(text);
}

/// Why: MHD hands the request target on as a C string, ended at its first NUL, and a raw NUL is no part of any
/// target (RFC 9112 §3.2, RFC 3986 §2): "GET /.well-known/jwks.json<NUL>x" reached the router as the JWKS path, one
/// resource under many names again. The URI log callback (MHD_OPTION_URI_LOG_CALLBACK) sees the target before MHD
/// splits off the query or decodes anything, ended only by the NUL MHD wrote over the space before the version; its
/// answer becomes the request's *req_cls until the access handler's first call. It records the target's C-string
/// length there, tagged in the low bit (a request context's address is aligned, so never odd): the access handler
/// compares it with the target's length on the line (up to the version) and refuses the request when they differ.
static void *CMicroHTTPD_record_target(void *cls, const char *uri, struct MHD_Connection *connection)
{
    (void)cls;
    (void)connection;
    size_t length = uri != NULL ? strlen(uri) : 0;
    return (void *)(((uintptr_t)length << 1) | 1u);
}

/// The target length CMicroHTTPD_record_target recorded in `slot`, or -1 when `slot` is empty or holds a request
/// context instead.
static inline long CMicroHTTPD_recorded_target_length(const void *slot)
{
    uintptr_t bits = (uintptr_t)slot;
    return (bits & 1u) != 0 ? (long)(bits >> 1) : -1;
}

/// Why: MHD_start_daemon is variadic (options as MHD_OPTION_* pairs); Swift cannot call C varargs.
/// Options with a zero/NULL value are left out so MHD keeps its own default.
static inline struct MHD_Daemon *CMicroHTTPD_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address,
    MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback connection_notify, void *connection_notify_cls,
    unsigned int connection_limit, unsigned int per_address_connection_limit, unsigned int connection_timeout_seconds,
    unsigned int thread_pool_size, size_t connection_memory_limit,
    const char *tls_certificate_pem, const char *tls_key_pem)
{
    struct MHD_OptionItem options[13];
    unsigned int count = 0;
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_notify, connection_notify_cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)CMicroHTTPD_unescape, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)CMicroHTTPD_record_target, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)connection_timeout_seconds, NULL };
    if (per_address_connection_limit > 0) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_address_connection_limit, NULL };
    }
    if (thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL };
    }
    if (connection_memory_limit > 0) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL };
    }
    if (tls_certificate_pem != NULL && tls_key_pem != NULL) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_certificate_pem };
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key_pem };
    }
    options[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, port, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// Why: MHD_get_daemon_info is variadic; returns the bound port (0 when unknown).
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Why: MHD_get_connection_info is variadic; formats the peer address into `buffer`
/// (NUL-terminated, at least INET6_ADDRSTRLEN bytes) and returns its length, or 0 when unknown.
static inline size_t CMicroHTTPD_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || capacity < INET6_ADDRSTRLEN) {
        return 0;
    }
    const struct sockaddr *address = info->client_addr;
    const char *text = NULL;
    if (address->sa_family == AF_INET) {
        text = inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)capacity);
    } else if (address->sa_family == AF_INET6) {
        text = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)capacity);
    }
    return text == NULL ? 0 : strlen(buffer);
}

/// Why: MHD_get_connection_info is variadic; returns the peer's address (a sockaddr_in or sockaddr_in6 as accept(2)
/// filled it, by its family), or NULL when unknown.
static inline const struct sockaddr *CMicroHTTPD_client_sockaddr(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Why: MHD_get_connection_info is variadic; returns the connection's socket, or -1 when unknown.
static inline int CMicroHTTPD_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/// Why: MHD_get_connection_info is variadic; returns the length of the request's header section as MHD read it (from
/// the method to the end of the empty line), or 0 when unknown.
static inline size_t CMicroHTTPD_request_header_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Why: MHD_create_response_from_buffer's MHD_RESPMEM_MUST_COPY constant does not import (fixed-enum
/// macro). MHD copies `length` bytes, so the Swift buffer need not outlive the call.
static inline struct MHD_Response *CMicroHTTPD_response_copying(const void *bytes, size_t length)
{
    return MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

#endif
