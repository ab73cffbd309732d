#ifndef PASSKEYD_CCBOR_SHIM_H
#define PASSKEYD_CCBOR_SHIM_H
// libcbor imports directly; this header only pulls it in (wrappers go here if a macro is needed).
#include <cbor.h>
#endif
