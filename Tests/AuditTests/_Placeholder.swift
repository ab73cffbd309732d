import Testing

// The Audit target holds no code yet (see Sources/Audit/_Placeholder.swift), so there is nothing to test.
