#ifndef PASSKEYD_CMICROHTTPD_SHIM_H
#define PASSKEYD_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
// Wrappers for what Swift cannot import from libmicrohttpd (variadic MHD_start_daemon, enum
// constants declared through macros) are added here by the HTTP module's owner.
#endif
