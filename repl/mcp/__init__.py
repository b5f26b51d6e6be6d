"""`sym mcp`: sym as a tool for other agents, a Model Context Protocol server on stdio or Streamable HTTP.

`schema` turns the command registry's declarations into tool input schemas, `names` keeps one naming
scheme for their arguments, `outputs` gives each tool its output schema from the result types its
command returns, `tools` turns a tool call's arguments into the one command line the shell runs,
`prompts` offers the common tasks, `approve` asks the client's user before a change (elicitation),
and `server` serves them (and the resources) with the official `mcp` SDK, which only `sym mcp`
imports, over `wire`, its own stdio transport (a reply to every line), or `http`; `caps` bounds what
one call stores.
"""
