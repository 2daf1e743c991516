"""End to end: the real bot against the Discord-compatible fake server, flow by flow."""
