"""`sym mcp`: sym as a tool for other agents, a Model Context Protocol server on stdin/stdout.

`schema` turns the command registry's declarations into tool input schemas, `tools` turns a
tool call's arguments into the one command line the shell runs, `server` serves them (and the
resources) with the official `mcp` SDK, which only `sym mcp` imports, over `wire`, its own stdio
transport (a reply to every line); `caps` bounds what one call stores.
"""
