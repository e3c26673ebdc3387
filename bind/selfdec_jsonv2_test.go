//go:build goexperiment.jsonv2

package bind_test

import "encoding/json/jsontext"

// jsontextDecoder is this build's jsontext.Decoder, the one V2 hands an
// UnmarshalJSONFrom (selfdec_test.go's selfFrom).
type jsontextDecoder = jsontext.Decoder
