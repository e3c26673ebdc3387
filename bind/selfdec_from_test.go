package bind_test

import "errors"

// selfFrom is read by V2 through its UnmarshalJSONFrom, with this
// build's jsontext (jsontextDecoder): a number, or it fails (segmentio
// sees no method of its own, and reads it as the struct it is; so does
// Std, but under GOEXPERIMENT=jsonv2, where encoding/json is v2's).
type selfFrom struct{ Raw string }

func (s *selfFrom) UnmarshalJSONFrom(dec *jsontextDecoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if v.Kind() != '0' {
		return errors.New("selfFrom: not a number")
	}
	s.Raw = string(v)
	return nil
}
