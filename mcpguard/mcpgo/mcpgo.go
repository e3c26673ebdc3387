package mcpgo

import _ "github.com/mark3labs/mcp-go/server"
