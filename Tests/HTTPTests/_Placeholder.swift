import Testing

// Placeholder; replaced by the module's first test file.
