import Server

// Placeholder entry point; replaced by the CLI.
print("passkeyd")
