#ifndef PASSKEYD_CLIBPQ_SHIM_H
#define PASSKEYD_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <postgres_ext.h>

/* The PG_DIAG_* field codes are character-literal macros, which Swift does not import: these read the fields
   passkeyd needs from an error result (NULL when absent). */
static inline const char *passkeyd_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

static inline const char *passkeyd_pq_constraint(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
}

static inline const char *passkeyd_pq_primary_message(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
}
#endif
