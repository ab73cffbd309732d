// The probative audit log of DESIGN.md (hash-chained, server-signed entries, offline verifier) will live in this
// target. Nothing is implemented yet: device-key and security events are recorded as `SecurityEvent` rows by the
// store, ready for the chain to be built on them.
enum _AuditPlaceholder {}
