package gosdk

import _ "github.com/modelcontextprotocol/go-sdk/mcp"
