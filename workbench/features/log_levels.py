"""MCP's log levels (syslog's), lowest first: one tuple for the connection that filters
records, the Workbench that judges a level and the magics that complete one."""

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
