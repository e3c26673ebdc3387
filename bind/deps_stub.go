package bind

import (
	_ "github.com/go-json-experiment/json"
	_ "github.com/segmentio/encoding/json"
)
